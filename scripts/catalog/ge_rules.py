"""Category rules for GE and metadef messages (extract_ge.py, extract_metadef.py): the first rule
that fires decides (ge_ops_common.Rule). The category is what the user has to fix
(docs/kb-authoring.md); most of GE's checks are internal consistency checks with nothing for the
user (`other`, the default), so the rules look for the words and the code that say otherwise.

Order matters: specific conditions first (memory, resources, libraries and versions), then the
compiler families (data type / format not supported before shapes, shapes before the generic
"not supported"), then device, rank, communication, kernel faults, numeric overflow.
"""
from ge_ops_common import Rule

# Integer / size arithmetic overflows are internal checks, not NaN/Inf in the computation.
INT_OVERFLOW = (r"(?:size|offset|add|mul|multi|multiply|integer|\bint\d*|uint\d*|len|length|bytes|count|shape|index|"
                r"addr|address|num|value|sum|total|align|calc|calculat|int64|int32|size_t|ptr)\w*.{0,40}overflow|"
                r"overflow.{0,30}(?:size|when|after|add|mul|will|occur|of|in|risk|check)|"
                r"\[Check\]\[Overflow\]|\bOverflow\]")

# Allocations of C++ objects (make_shared, new) are not the device running out of memory.
OBJECT_ALLOC = r"shared_ptr|make_?shared|make unique|make_unique|new (?:an? )?(?:object|instance|op|node)\b|create .* object"

MEMORY_NOUN = r"(?:memory|mem|buffer|buf|workspace|tensor ?(?:data|buffer)?|mbuf\w*|hbm|ddr|space|var(?:iable)? mem\w*|weight)"
MEMORY = Rule("memory", "memory",
              r"out of memory|\bOOM\b|(?:memory|mem|hbm|ddr) (?:is |was )?(?:not enough|insufficient|exhausted|used up|full)"
              r"|not enough (?:device |host |free )?(?:memory|mem)|insufficient (?:device |host )?memory"
              r"|exceeds? (?:the )?(?:total |available |max(?:imum)? |free )?(?:device |host )?memory"
              r"|\b(?:malloc|rtMalloc\w*|aclrtMalloc\w*|AclrtMalloc\w*|MallocHost|halMemAlloc\w*|rtMemAlloc\w*)\b.{0,60}\b(?:fail|failed|failure|error)"
              r"|(?:fail|failed|unable|cannot|can't|could not)\w*.{0,20}\b(?:to )?(?:malloc|rtMalloc\w*|aclrtMalloc\w*)\b"
              r"|\b(?:alloc|allocate)\w*\b.{0,40}\b" + MEMORY_NOUN + r"\b.{0,40}\b(?:fail|failed|failure|error)"
              r"|\b" + MEMORY_NOUN + r"\b.{0,30}\b(?:alloc|allocate|allocation)\w*\b.{0,30}\b(?:fail|failed|failure|error)"
              r"|(?:fail|failed|unable|cannot|can't|could not)\w*.{0,20}\b(?:to )?(?:alloc|allocate)\w* .{0,20}" + MEMORY_NOUN + r"\b"
              r"|\[(?:Malloc|Alloc|Allocate)\]\[(?:Memory|Mem|Buffer|Workspace|DSTMemory|Tensor\w*)\]"
              r"|(?:memory|workspace) (?:size )?.{0,20}(?:exceed|too large|larger than|limit)",
              unless=OBJECT_ALLOC + r"|allocator (?:is )?(?:null|not)|not support|unsupport|stream|event|notify|port\b|processor|reader|dumper|flow ?func")

RESOURCE = Rule("resource", "resource",
                r"\b(?:streams?|events?|notif(?:y|ies)|labels?|queues?|handles?|task ?ids?|model ?ids?)\b.{0,50}"
                r"\b(?:exceed|exhaust|not enough|insufficient|limit|too many|run out|used up|no (?:free|available))"
                r"|(?:exceed|too many|not enough|insufficient).{0,30}\b(?:streams?|events?|notif(?:y|ies)|labels?)\b"
                r"|\b(?:rtStreamCreate\w*|rtEventCreate\w*|aclrtCreateStream\w*|aclrtCreateEvent\w*|rtNotifyCreate\w*"
                r"|rtLabelCreate\w*|CreateStream|CreateEvent)\b.{0,40}\b(?:fail|failed|error)"
                r"|\b(?:create|alloc\w*)\b.{0,10}\b(?:stream|event|notify|label)s?\b.{0,20}\b(?:fail|failed|error)")

INSTALL = Rule("install/version", "install_version_mismatch",
               r"\bdlopen|\bdlsym|mmDlopen|mmDlsym|undefined symbol|No module named|ModuleNotFoundError|ImportError"
               r"|PyImport|import (?:python )?(?:module|package)|(?:python )?(?:module|package) .{0,30}(?:import|not found|not install)"
               r"|\.so\b.{0,60}(?:fail|not (?:exist|found)|error|invalid|cannot|can't)"
               r"|(?:fail|failed|cannot|can't|unable)\w* (?:to )?(?:open|load|find|get|dlopen)\w* .{0,40}\.so\b"
               r"|\bload\w* (?:the )?(?:so|library|lib|plugin|op ?(?:proto|impl|master|tiling)\w*)\b.{0,40}(?:fail|error|not)"
               r"|\b(?:so|library|plugin)\b (?:file )?(?:is )?(?:not (?:exist|found)|missing)"
               r"|version.{0,40}(?:mismatch|not match|incompatible|not compatible|inconsistent|too (?:low|old|high)|lower than|higher than|does not match|not consistent)"
               r"|(?:mismatch|incompatible|inconsistent).{0,30}version|version (?:check|verify) fail"
               r"|ASCEND_OPP_PATH|ASCEND_HOME|ASCEND_TOOLKIT|LD_LIBRARY_PATH|opp path|opp_path|\bopp\b.{0,30}(?:not exist|invalid|fail|empty)"
               r"|(?:set_env|setenv)\.sh|(?:cann|toolkit|opp|kernel) package|not installed",
               unless=r"soc ?version.{0,40}not support|not support.{0,40}soc")

DTYPE_FORMAT = Rule("dtype/format unsupported", "compile_op_unsupported",
                    r"\b(?:dtype|data ?type|datatype|format|DT_\w+)\b.{0,60}\b(?:not support|unsupported|is not supported|not in .{0,20}support|invalid|illegal|mismatch|not match|not (?:be )?(?:same|equal|consistent)|should be|must be|wrong|failed to (?:select|trans|convert))"
                    r"|\b(?:not support|unsupported|does not support)\w*.{0,40}\b(?:dtype|data ?type|datatype|format|DT_\w+)\b"
                    r"|not implemented for|should be in dtype support list|(?:trans ?format|TransData)\w*.{0,40}(?:not support|unsupport|fail)|select (?:the )?(?:op )?(?:format|dtype)\w*.{0,20}fail"
                    r"|\bsoc ?version\b.{0,50}(?:not support|unsupported|invalid|not match)|(?:not support|unsupported).{0,40}soc",
                    unless=r"dump|profil|log format|json format|time format|file (?:content |name )?format|format of (?:the )?(?:file|json|string|log)|string format|date|output_type format|\badd(?:ing)? edge|empty|same time|unique|list size|size is not equal")

SHAPE = Rule("shape", "compile_shape",
             r"\binfer ?shape|InferShape\w*|infer_shape|shape (?:inference|infer)|inferred shape|infer(?:_| )?range|InferFormat"
             r"|--input_shape|input_shape_range|\binput_shape\b|--dynamic_dims|dynamic_dims|dynamic_batch_size|dynamic_image_size|dynamic ?(?:batch|dims|gear)"
             r"|\bshapes?\b.{0,60}\b(?:invalid|illegal|mismatch|not match|not equal|must|should|out of range|exceed|negative|overflow"
             r"|not (?:be )?(?:supported|valid|consistent|same|correct)|is not|are not|too (?:large|small|many)|wrong|incorrect|unknown|larger|smaller|less|greater|different|conflict|inconsistent|empty|zero)"
             r"|\b(?:dims?|dimensions?|dim ?num|dim ?size|axis|axes|rank of (?:input|tensor))\b.{0,40}\b(?:invalid|illegal|out of range|must|should|mismatch|not equal|not match|exceed|negative|larger|smaller|less|greater|different|incorrect|wrong|not (?:be )?(?:supported|valid|same))"
             r"|\btiling\w*\b.{0,60}(?:fail|error|invalid|not)|(?:fail|failed|error)\w*.{0,40}\btiling|\bTiling\w*\]"
             r"|(?:check|verify)\w* .{0,20}shape\w* (?:fail|error)|\[Check\]\[\w*Shape\w*\]|\[Infer\w*\]",
             unless=r"\bget\w* .{0,20}shape\w* (?:fail|error)|shape ?range (?:fail|error)|tiling ?(?:data|def|id|key|bin|offset|dependency|mem|attr|context|info|ids)\w*.{0,30}(?:fail|not|invalid)|(?:set|save|append|parse|update|build|init)\w* .{0,20}tiling")

OP_UNSUPPORTED = Rule("op unsupported / compile", "compile_op_unsupported",
                      r"\bnot supported\b|\bunsupported\b|\bnot support\b|does not support|doesn't support|is not supported"
                      r"|op(?:s)? ?(?:kernel ?)?(?:info ?)?store|ops ?kernel|kernel (?:info )?(?:is )?not (?:found|exist|registered)"
                      r"|(?:no|not find|cannot find|can't find|not found)\b.{0,20}\b(?:kernel|op ?impl\w*|implementation|engine)\b"
                      r"|\b(?:op ?type|optype)\b.{0,40}\b(?:not (?:found|registered|exist)|unknown|invalid)|is not registered"
                      r"|check ?support|CheckSupport|(?:compile|build)\w* (?:the )?(?:op|ops|operator|kernel|node|task|fusion|single op|tbe|om)\w*.{0,40}(?:fail|error)"
                      r"|\b(?:op|operator|kernel|node|fusion ?op)\b.{0,30}\bcompil\w*.{0,30}(?:fail|error)|compil\w* (?:op|operator|kernel)"
                      r"|pre-?compil\w*.{0,30}(?:fail|error)|\bfusion\b.{0,40}(?:fail|error|invalid)|(?:fail|failed)\w*.{0,20}\bfusion\b"
                      r"|\bpass\b.{0,30}\b(?:run|execute)?\s*(?:fail|failed)|\bTBE\b.{0,40}(?:fail|error)|tbe ?(?:compile|build)",
                      unless=r"interface|please implement|\bdump|profil|udf|flow ?func|slice scheduler|copy direction|mem_?type|memory type|object|nullptr|\bnull\b|library path|"
                             r"\bedge|control edge|resource\] failed|"
                             r"not supported (?:yet|now|currently|for now|temporarily)\b.{0,10}$")

PERMISSION = Rule("permission/device", "permission_device",
                  r"permission|access denied|\bEACCES\b|\bEPERM\b|operation not permitted|not permitted"
                  r"|device (?:is )?(?:busy|occupied|in use|already (?:used|in use|opened))|resource (?:is )?busy"
                  r"|no (?:available |valid )?(?:npu )?devices?\b|(?:visible|available) devices?.{0,30}(?:empty|invalid|not)"
                  r"|ASCEND_(?:RT_)?VISIBLE_DEVICES|open device (?:fail|error)|(?:fail|failed) to open (?:the )?device")

DRIVER = Rule("driver/device", "driver_firmware_env",
              r"\bdriver\b.{0,40}(?:fail|error|not|invalid|mismatch)|firmware|\bhal[A-Z]\w*\b.{0,30}(?:fail|error)|\bdrv[A-Z]\w*\b.{0,30}(?:fail|error)"
              r"|device (?:lost|error|fault|down|abnormal|unavailable|not ready|heartbeat)|heartbeat|\bhbm\b.{0,20}(?:ecc|error|fault)"
              r"|(?:rtSetDevice|aclrtSetDevice|SetDevice)\w*.{0,30}(?:fail|error)|set device.{0,20}(?:fail|error)"
              r"|\bTSD\b|tsd ?client|\btsd\w*.{0,20}(?:open|fail|error)|aicpu ?sd|device ?(?:side )?(?:process|daemon).{0,30}(?:fail|error|exit)"
              r"|(?:get|query)\w* (?:the )?(?:soc|chip|device) (?:info|version|count|num)\w*.{0,30}(?:fail|error)|rtGetDeviceCount",
              unless=r"not support|unsupport")

RANK = Rule("rank config", "rank_config",
            r"rank ?table|rank_table|ranktable|\brank ?size\b|\brank ?(?:id|num)\b|\bworld ?size\b|\brank\b.{0,30}(?:invalid|out of range|not (?:match|found|exist)|must|should|exceed|duplicate|conflict)"
            r"|(?:device|dev|phy|physical|logic|logical) ?id\b.{0,40}(?:invalid|out of range|not (?:match|found|exist)|must|should|exceed|larger|greater|duplicate|conflict)"
            r"|invalid (?:device|dev) ?id"
            r"|(?:cluster|deploy|resource) ?(?:config|configuration|info|json)\w*.{0,40}(?:invalid|not|fail|error|empty|mismatch)"
            r"|HCCL_(?:WHITELIST|IF_IP|SOCKET|CONNECT|BUFFSIZE)|RANK_TABLE_FILE|\bRANK_ID\b|\bRANK_SIZE\b")

COMMUNICATION = Rule("communication", "communication",
                     r"\bsocket\b|\bconnect(?:ion)?\b.{0,40}(?:fail|refused|timeout|time ?out|closed|reset|broken|lost)"
                     r"|(?:network|physical|hccs|roce|rdma|nic|port|net) ?link\b.{0,30}(?:fail|down|broken|error|timeout)|\blink (?:is )?(?:down|broken)|\bnotify\b.{0,30}(?:wait|timeout|time ?out)"
                     r"|time ?out|timed ?out|\bRoCE\b|\brdma\b.{0,30}(?:fail|error)|\bhcom\w*\b.{0,40}(?:fail|error)|\bhccl\w*\b.{0,40}(?:fail|error)",
                     unless=r"config|option|parse|param|invalid|must be|should be|set .{0,20}timeout|timeout (?:value|option|param|config)|"
                            r"graph ?(?:build|compile)|build .{0,20}graph|not support|\bfuse|fusion|optimi[sz]|data ?type|transform|objs?\b")

AICORE = Rule("kernel exception", "aicore_exception",
              r"\bai ?core\b.{0,30}(?:exception|error|fault|trap|timeout)|\baicore (?:exception|error)|\bai ?cpu\b.{0,30}(?:exception|error|fault|timeout)"
              r"|\b(?:kernel|task)\b.{0,30}\b(?:exception|execut\w* (?:fail|error|timeout|exception)|trap|core ?dump)"
              r"|exception (?:occur|happen)|\bexception info\b|\btrap\b|mte ?error|vector ?core.{0,20}(?:exception|error)|\bsdma\b.{0,30}(?:error|exception|fail)",
              unless=r"\bthrow|catch|std::|python exception|c\+\+ exception|parse|json|destroy|destructor|~|error message|session|deployer|proxy|copy exception|save task exception|msg queue|cannot find exception")

OVERFLOW = Rule("NaN/overflow", "compute_overflow_nan",
                r"\bNaN\b|\bInf\b|nan/inf|inf/nan|float(?:ing)?[- ]?(?:point )?overflow|overflow (?:detected|flag|status|mode)"
                r"|\bcheck ?overflow|overflow ?check|division by zero|divide(?:d)? by zero|div(?:ide|isor)? (?:is )?zero|\bglobal ?step\b.{0,20}overflow",
                unless=INT_OVERFLOW)

RULES = [MEMORY, RESOURCE, INSTALL, DTYPE_FORMAT, SHAPE, OP_UNSUPPORTED, PERMISSION, DRIVER, RANK, COMMUNICATION,
         AICORE, OVERFLOW]

# Modules whose messages rarely concern the user: keep the default unless a rule above fires.
