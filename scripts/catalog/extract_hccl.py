#!/usr/bin/env python3
"""HCCL's ERROR-level messages -> kb/messages/hccl.yaml (hicann/hccl: the collective operators)
and kb/messages/hcomm.yaml (hicann/hcomm: communicators, links, sockets, RoCE/HCCP, rank
tables), as docs/kb-messages.md describes.

What is read (test, example and stub trees left out):
- HCCL_ERROR(fmt, ...): plog module HCCL, "[file:line] [tid]" then the message;
- hccp_err(fmt, ...): plog module HCCP (the RoCE/socket agent), "[file:line]tid:N,func : ";
  roce_err(fmt, ...): plog module NET, "[file:line]func : ";
- the messages of HCCL's exceptions (THROW<E>(fmt, ...), MACRO_THROW / CHK_PRT_THROW /
  CHK_RET_THROW with a literal or StringFormat(fmt, ...)): THROW logs them with HCCL_ERROR
  before throwing, the others are logged at ERROR where they are caught;
- RPT_INNER_ERR_PRT / RPT_CALL_ERR / RPT_CALL_ERR_PRT: error-manager reports (EI9999), shown
  in the error message block of the exception, so `level: any` (kept only when a gate word
  makes it cheap to scan, catalog_lib.gate_policy).
RPT_INPUT_ERR / RPT_ENV_ERR report E-codes (EI0001 ...) whose texts live in the error-code
catalogue (kb/cann_ecodes.yaml), not in these sources.

Usage: extract_hccl.py [--mirrors /work/.mirror] [--doctor build/src/npu-doctor]
"""
import argparse
import collections
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog_lib as L  # noqa: E402
import catalog_rules as R  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

SOURCES = [
    # hcomm first: hicann/hccl repeats a few of its formats (CHK_RET's "call trace"), which are
    # then counted as duplicates there.
    dict(key="hcomm", component="HCCL (hcomm)", repo="hicann/hcomm", family="src-hcomm",
         # hicann/hcomm itself cannot be fetched here; libochao-huawei/hcomm is a mirror of it
         # (same commits, no commits of its own), read at a commit hicann/hcomm has.
         mirror="libochao-huawei+hcomm", commit="d4d263af9e88d06ab26c4d2b76464246b5d61797",
         out="kb/messages/hcomm.yaml"),
    dict(key="hccl", component="HCCL", repo="hicann/hccl", family="src-hccl",
         mirror="hicann+hccl", commit="09300b70df9a031339f08e5f2ca06d7bf294d009",
         out="kb/messages/hccl.yaml"),
]

EXCLUDE = re.compile(r"(^|/)(test|tests|ut|st|stub|stubs|examples|example|llt)(/|$)")

# name -> (index of the format argument, how it is logged)
MACROS = {
    "HCCL_ERROR": (0, "hccl"),
    "MODULE_ERROR": (0, "hccl"),
    "hccp_err": (0, "hccp"), "hccp_run_err": (0, "hccp"),
    "roce_err": (0, "net"), "roce_run_err": (0, "net"), "net_err": (0, "net"), "net_run_err": (0, "net"),
    "THROW": (0, "throw"),
    "MACRO_THROW": (1, "throw"),
    "CHK_RET_THROW": (1, "caught"),
    "CHK_PRT_THROW": (3, "caught"),
    "CHK_PTR_NULL_WITH_MSG": (1, "ptrmsg"),
    "RPT_INNER_ERR_PRT": (0, "report"), "RPT_CALL_ERR_PRT": (0, "report"),
    "RPT_CALL_ERR": (1, "report"),
}
MACRO_RE = r"(?:Hccl::|::)?THROW\s*<[\w:\s]+>|" + "|".join(re.escape(m) for m in MACROS if m != "THROW")

# ---------------------------------------------------------------------------------------------
# Categories. Read in order; the first rule whose pattern the message matches decides. The
# message is the format with its placeholders; `code` rules look at the HcclResult the code
# returns or prints (errNo[HCCL_ERROR_CODE(HCCL_E_x)]) right at the call.

CATEGORY_RULES = R.Rules([
    # Waiting for peers: a timeout means another rank did not arrive (or the network between).
    ("timeout", r"time ?out|timed out|overtime|expired", "communication"),
    # Secure-function and bookkeeping failures say nothing the user can fix.
    ("safety-func", r"\b(?:mem(?:cpy|set|move)_s|str(?:cpy|cat|ncpy)_s|s?n?printf_s|sscanf_s|safety func)\b|"
                    r"\b(?:memcpy|memset|strcpy|sprintf|snprintf|sscanf)\b(?! ?async)(?!.*(?:device|dev mem|d2h|h2d))|"
                    r"mem(?:ory)? (?:set|copy) (?:failed|error)", "other"),
    ("integer-overflow", r"integer overflow|(?:add|mul|multipl\w*|sum|offset|size)\W+(?:\w+\W+){0,3}overflow|overflow(?:ed)? (?:when|while|in) (?:add|mul|calc)|"
                         r"maximum value of|max value of (?:u?int|unsigned)", "other"),
    # A null pointer or handle inside HCCL is its own bookkeeping, whatever it is called.
    ("null", r"\bnull\b|nullptr|null ?ptr|null pointer", "other"),
    # Device memory / host memory allocation.
    ("memory", r"out of memory|\boom\b|\bmalloc|\bcalloc|\brealloc|alloc\w*[ _]?(?:host ?|dev(?:ice)? ?)?(?:mem|memory|buf|buffer)|"
               r"(?:mem|memory|buffer)\w*[ _]?alloc|memory is not enough|(?:no|not enough|insufficient) (?:\w+ )?memory|"
               r"memory (?:is )?(?:insufficient|exhausted|not enough)|new \w+ fail|\bnew\b.*\bfail|make_unique|make_shared|"
               r"HCCL_BUFFSIZE|ccl ?buffer size|cclbuffer|workspace ?mem\w* (?:is )?(?:not enough|too small|insufficient)|"
               r"hrtMalloc|aclrtMalloc|rtMalloc|halMemAlloc|\bmmap", "memory"),
    # Streams, notifies, events, queues and other finite device resources.
    ("resource", r"(?:stream|notify|notifies|event|semaphore|\bqp|jetty|jfc|\bcq|\bsq)\w*\W*(?:\[[^\]]*\]\W*)?(?:num\w* )?"
                 r"(?:alloc|create|apply|reserve)\w*\s*(?:\[[^\]]*\]\s*)?(?:fail|error|err\b)|"
                 r"(?:alloc|create|apply)\w* (?:\w+ )?(?:stream|notify|notifies|event)s?\b.*(?:fail|error)|"
                 r"(?:no|not enough|insufficient) (?:free |available |idle )?(?:stream|notify|notifies|event|resource|qp|jetty|slot)s?\b|"
                 r"resource\w* (?:is |are )?(?:not enough|insufficient|exhausted|used up|full)|"
                 r"(?:stream|notify|notifies|event|qp|jetty|cq|handle)\w*\W*(?:\[[^\]]*\]\W*)?(?:num\w*|number|count|size)?\W*(?:\[[^\]]*\]\W*)?"
                 r"(?:is |has )?(?:exceed|reach|more than|bigger|larger|greater)|"
                 r"pool is (?:empty|full)|queue (?:is )?full", "resource"),
    # Libraries and versions.
    ("install", r"\bdlopen|\bdlsym|\.so\b|so file|load (?:\w+ )?(?:lib|library|so)\b|symbol|version\w* (?:is )?(?:mismatch|not match|incompatible|not support|too low|invalid)|"
                r"(?:mismatch|not match|incompatible)\w* (?:\w+ )?version|not installed|package|ASCEND_\w*HOME|"
                r"(?:cann|driver|firmware) version|(?:does ?n[o']t|not) support this interface|"
                # HCCL's own AICPU/AIV kernels ship in the CANN packages: a missing one is an install problem.
                r"(?:load|open|find|get) (?:\w+ )?(?:aicpu|aiv|kernel|op) (?:\w+ )?(?:file|binary|bin|so|path)|aicpu file|kernel (?:binary|bin) file",
                "install_version_mismatch"),
    # Data types, reduce ops, operators and SoCs HCCL does not implement. (Type names are matched
    # at a word or camelCase boundary: "ThreadType" is not a dtype.)
    ("dtype-unsupported", r"(?:(?<![A-Za-z])(?:data ?type|dtype|reduce ?op|reduce ?type|op ?type|operator|reduction)|(?-i:(?<=[a-z])(?:DataType|ReduceOp|OpType)))"
                          r"\w*\W*(?:\[[^\]]*\]\W*|%\w+\W*)?"
                          r"(?:is |are )?(?:not (?:be )?support|unsupport|invalid|illegal|error|wrong|not (?:in|valid))|"
                          r"(?:not support|unsupport)\w*\W+(?:\w+\W+){0,4}(?:data ?type|datatype|dtype|reduce ?op|op ?type|optype|operator)\b|"
                          r"(?:chip|soc|device ?type|dev ?type|hardware|platform|machine ?type|\bA[235]\b|910\w*|310\w*)\W*(?:\[[^\]]*\]\W*)?(?:is |does |do )?(?:not |un)support|"
                          r"(?:only support|not supported on|unsupported on|not support on) (?:\w+ )?(?:A[235]\b|910|310|chip|soc|device)", "compile_op_unsupported"),
    # Permission and device occupancy.
    ("permission", r"permission|access denied|not permitted|\beacces\b|\beperm\b|no right|have not op right|"
                   r"(?:device|card|npu) (?:is )?(?:busy|occupied|in use)|resource busy", "permission_device"),
    # A link, connection or network that is abnormal or down is the network between ranks, even
    # when the sentence names the devices at its ends ("the connection between this device and
    # the target device is abnormal" is no device fault).
    ("link-abnormal", r"\b(?:connection|link|network|socket|port)s?\b(?:\s+[\w.]+){0,8}?\s+(?:is |are |was |were )?"
                      r"(?:abnormal|broken|down|disconnected|interrupted|unreachable)\b", "communication"),
    # Driver, HDC (host-device channel), device state, firmware.
    ("driver", r"\bhal[A-Z]\w*|\bhal \w+|\bdrv\w*|driver|\bdsmi|\bdcmi|\bhdc\b|hdc\w* (?:msg|message|recv|send|session|server|client|connect)|"
               r"\btsd\w*|firmware|devdrv|device (?:is )?(?:lost|fault|abnormal|down|not ready|hang)|heart ?beat lost|"
               r"\brts? ?get ?dev(?:ice)?\w* (?:info|count|phy)|get (?:device|dev) (?:info|count|phy ?id|logic ?id)\w* fail|"
               r"set ?device\w*\s*(?:\[[^\]]*\]\s*)?(?:fail|error)|get chip ?id|aicpu (?:process|start|open)|open device|(?:chip|die) (?:info|id) (?:get|query)", "driver_firmware_env"),
    # Rank, rank table, device id, world size, servers and pods: what the launcher configures.
    ("rank-config", r"rank ?table|ranktable|rank_table|RANK_TABLE_FILE|HCCL_WHITELIST|white ?list|rank_count|server_count|"
                    r"json object (?:has no|does not contain) property|property called|"
                    r"(?:\brank|user ?rank|rank ?(?:id|size|num|count)|world ?size|dev(?:ice)?[ _]?(?:logic|phy)?[ _]?id|phy ?id|dev ?id|"
                    r"device ?(?:num|count)|server ?(?:num|list|id|count|ip)|super ?pod|pod ?(?:num|id)|root ?(?:info|rank)|host ?ip|"
                    r"group ?(?:name|rank|size)|local ?rank|rank ?list|ranks?)\w*(?:\W*\[[^\]]*\]|\W*%\w+)?\W*"
                    r"(?:is |are |be |was )?(?:invalid|illegal|out of range|not in range|exceed|bigger|larger|greater|less than|smaller|"
                    r"not (?:found|exist|match|equal|in|valid|set|consistent|same)|doesn't match|mismatch|inconsistent|different|duplicat|repeat|"
                    r"zero|is 0\b|empty|wrong|must|should|expect|no match|conflict|already exist|overflow)|"
                    r"(?:inconsistent|different|differ|mismatch|not (?:the )?same|duplicat)\w* (?:\w+ ){0,3}(?:between|among|across|in|of) (?:\w+ ){0,2}ranks?|"
                    r"is not (?:in|a member of) (?:the )?(?:group|comm)|group\W*(?:\[[^\]]*\]\W*)?(?:is )?not (?:found|exist|created)|"
                    r"comm with group name|(?:comm|communicator) (?:name|id)\W*(?:\[[^\]]*\]\W*)?(?:is )?(?:not found|invalid|exist)", "rank_config"),
    # Environment variables HCCL reads (HCCL_IF_IP, HCCL_SOCKET_IFNAME, HCCL_INTRA_*, ...): the
    # network settings are communication; the rest of the HCCL_* settings as well (the hand-written
    # hccl-config.invalid-value is communication).
    ("env", r"\bHCCL_[A-Z_]+|environment variable|env\w* (?:config|var|value|set)", "communication"),
    # Checks inside HCCL that only say its own state or arguments were wrong.
    ("internal-check", r"is empty|\bempty\b|invalid|illegal|not init|uninit|has not been init|already init|"
                       r"unexpected|unknown|not (?:found|exist|match|equal|valid|registered)|doesn't (?:match|exist)|mismatch|"
                       r"out of range|exceed|bigger than|larger than|greater than|less than|smaller than|is zero|must be|should be|"
                       r"(?:is |are )?not (?:support|allowed)|unsupport|(?:does|do|doesn't|don't|can) ?not support|cannot support|"
                       r"wrong|abnormal|error state|in state|cannot be invoked|"
                       r"check \w+ fail|check fail|calculation error|is not correct|incorrect|\s(?:!=|==|>=|<=|<|>)\s", "other"),
    # An HCCL task failed on the device: HCCL prints what the task was doing (the hand-written
    # hccl-msg.notify-wait-task-failed is communication).
    ("task-exception", r"task ?exception|task run failed|taskType", "communication"),
    # Everything about moving data between ranks: links, sockets, RoCE/RDMA, transport, notify.
    ("communication", r"socket|\blink|connect|roce|rdma|\bqp\b|\bqpn?\b|tcp|\bip\b|\bport\b|\bnic\b|vnic|network|transport|"
                      r"\bsend|\brecv|receive|notify|hccs|\bping|cqe|\bibv|verbs|listen|accept|epoll|\bp2p\b|sdma|heartbeat|"
                      r"retry|opretry|\bpeer|remote|exchange|topo|rping|hccn|urma|jetty|\btls\b|\bssl\b|\bfd\b|\bub\b|channel|"
                      r"endpoint|\bmsg\b|message|packet|\bpkt\b|\back\b|handshake|wait ?done|rxwait|txwait|\bwait\b|barrier|"
                      r"allreduce|all_reduce|allgather|reducescatter|alltoall|broadcast|scatter|gather|reduce|collective|comm|"
                      r"root ?info ?detect|rootinfo|topo ?detect", "communication"),
])

# Leading [Class][Method] tags name code, not conditions ("[BroadCastOperator]" is no operator
# check); they are left out when the rules read a message, except that a rank-table tag says
# the message is about the rank table.
TAG = re.compile(r"\[[A-Za-z_][\w:~]*\]|errNo\[[^\]]*\]")


# "Rank [%d], Invalid virtual topo": the rank is context (who logs), not what is invalid.
RANK_CONTEXT = re.compile(r"(?i)\b(?:local ?)?rank ?\[%\w+\]\s*(?:,|--|:)\s*(?:peer ?\[%\w+\]\s*,?\s*)?")


def rule_text(msg):
    text = RANK_CONTEXT.sub(" ", TAG.sub(" ", msg))
    if re.search(r"\[[^\]]*rank_?table[^\]]*\]", msg, re.I):
        text += " (rank table)"
    return text


# The HcclResult the code returns at the call (CHK_PRT_RET(..., HCCL_E_x) / return HCCL_E_x) or
# prints (errNo[HCCL_ERROR_CODE(HCCL_E_x)]): the category of the hand-written hccl.<n> entry
# (kb/hccl_result.yaml), where it is specific.
CODE_CATEGORY = {
    "HCCL_E_MEMORY": "memory", "HCCL_E_OOM": "memory",
    "HCCL_E_TIMEOUT": "communication", "HCCL_E_TCP_CONNECT": "communication", "HCCL_E_ROCE_CONNECT": "communication",
    "HCCL_E_TCP_TRANSFER": "communication", "HCCL_E_ROCE_TRANSFER": "communication", "HCCL_E_NETWORK": "communication",
    "HCCL_E_REMOTE": "communication", "HCCL_E_UNAVAIL": "communication", "HCCL_E_AGAIN": "communication",
    "HCCL_E_SUSPENDING": "communication", "HCCL_E_OPRETRY_FAIL": "communication",
    "HCCL_E_DRV": "driver_firmware_env", "HCCL_E_OPEN_FILE_FAILURE": "rank_config",
    "HCCL_E_PTR": "other", "HCCL_E_INTERNAL": "other", "HCCL_E_PARA": "other", "HCCL_E_NOT_FOUND": "other",
    "HCCL_E_SYSCALL": "other", "HCCL_E_RUNTIME": "other", "HCCL_E_PROFILING": "other", "HCCL_E_CCE": "other",
    "HCCL_E_NOT_SUPPORT": "other",
}

# Files whose messages are about the rank table / topology the user gave.
PATH_CATEGORY = [
    (re.compile(r"ranktable|rank_table|topoinfo_ranktable|hccl_whitelist|whitelist"), "rank_config"),
    (re.compile(r"/hccp/|/transport|/socket|/network|/link|/notify|/nic|/rdma|/roce|hccl_socket|/p2p"), "communication"),
]

# ---------------------------------------------------------------------------------------------
# Roles

# Peers did not answer in time: the root cause is normally on another rank (or the network).
PEER_WAIT = re.compile(r"time ?out|timed out|overtime", re.I)
# Only says that a callee failed: "call trace: hcclRet -> %d", "X failed, ret[%d]", "X failed".
WRAPPER = re.compile(
    r"call trace|hcclRet|\bret\s*(?:->|=|:|\[|\()|\breturn\s*(?:\[|\(|=|:)|result\s*[\[=:(]|errno\s*[\[=:(]|error ?code\s*[\[=:(]|"
    r"\bfail(?:ed|ure)?\b\W*$|\bfail(?:ed)?\b\W*(?:,|\.|!)\s*(?:\w+\s*)?[\[(:=]|\b(?:failed|fail) to \w+|(?:^|\W)(?:call|run|exec\w*|invoke)\w* \w+ fail",
    re.I)
CAUSE_WORDS = re.compile(
    r"time ?out|timed out|out of memory|not enough|insufficient|not support|unsupport|invalid|illegal|mismatch|not match|"
    r"inconsistent|not found|not exist|permission|denied|busy|occupied|exceed|overflow|null|empty|out of range|bigger|larger|"
    r"greater|less than|smaller|is zero|duplicat|conflict|refused|reset|unreachable|down\b|lost|abnormal|error cqe|cqe err", re.I)


def bare(msg):
    """The message without placeholders and bracketed values: what it says in words."""
    text = re.sub(r"%[-+ #0']*\d*(?:\.\d+)?(?:hh|h|ll|l|j|z|t|L|q)?[diouxXeEfFgGaAcspn]", " ", msg)
    return re.sub(r"\s+", " ", text)


def classify(msg, codes, path):
    """(category, role, symptom_of, why) for one message."""
    rule, cat = CATEGORY_RULES.first(rule_text(msg))
    why = rule
    if rule == "rank-config" and re.search(r"(?i)\bmap\b|\blinks?\b|\bvector\b|\bqueue", msg) and \
            not re.search(r"(?i)rank ?table|ranktable|rank_table", msg):
        # "rank[%u] not found in links map": HCCL's own bookkeeping, not the user's rank settings.
        rule, cat, why = "internal-check", "other", "internal-map"
    if rule in (None, "communication"):
        # A specific HcclResult beats the generic word rules.
        for c in codes:
            if CODE_CATEGORY.get(c) and CODE_CATEGORY[c] != "other":
                cat, why = CODE_CATEGORY[c], "code:" + c
                break
    if cat is None:
        for rx, pc in PATH_CATEGORY:
            if rx.search(path):
                cat, why = pc, "path"
                break
    if cat is None:
        cat, why = "other", "default"
    symptom_of = None
    if PEER_WAIT.search(msg) and cat == "communication":
        role, symptom_of = "cause", ["any"]
    elif WRAPPER.search(bare(msg)) and not CAUSE_WORDS.search(msg):
        role = "wrapper"
    else:
        role = "cause"
    return cat, role, symptom_of, why


# ---------------------------------------------------------------------------------------------
# Reading


def format_arg(arg):
    """The format a macro argument spells: a literal, or StringFormat(fmt, ...)'s literal."""
    fmt = L.c_format_of(arg)
    if fmt is not None:
        return fmt
    m = re.match(r"\s*(?:Hccl::)?StringFormat\s*\(", arg)
    if m:
        args, _ = L._call_args(arg, m.end() - 1)
        if args:
            return L.c_format_of(args[0])
    s = arg.strip()
    m = re.match(r'(?:std::)?string\s*\(\s*(".*")\s*\)$', s, re.S)
    if m:
        return L.c_format_of(m.group(1))
    return None


def extra_prefix(args, kind):
    """Text a wrapping macro adds in front of the caller's format."""
    if kind == "ptrmsg":
        return "[%s]errNo[0x%016llx]ptr [%s] is NULL, return HCCL_E_PTR, additional msg: "
    return ""


def read_source(src, mirrors):
    repo = os.path.join(mirrors, src["mirror"], "repo")
    rev = src["commit"]
    files = [f for f in L.list_files(repo, rev, (".c", ".cc", ".cpp", ".h", ".hpp"))
             if not EXCLUDE.search(f)]
    calls, not_literal = [], 0
    for path in sorted(files):
        text = L.read_file(repo, path, rev)
        if not re.search(MACRO_RE, text):
            continue
        clean = R.join_continuations(L.strip_c_comments(text))
        for name, args, start, end, line in R.call_sites(clean, MACRO_RE):
            key = "THROW" if "THROW" in name and "<" in name else name
            idx, kind = MACROS[key]
            if idx >= len(args):
                continue
            fmt = format_arg(args[idx])
            if fmt is None:
                not_literal += 1
                continue
            fmt = extra_prefix(args, kind) + fmt
            window = clean[start:end + 240]
            codes = re.findall(r"\bHCCL_E_[A-Z_]+\b", window)
            func = R.enclosing_function(clean, start) if kind in ("hccp", "net") else None
            calls.append(dict(fmt=fmt, kind=kind, path=path, line=line, codes=codes, func=func))
    return calls, not_literal, len(files)


def sample_line(call, message):
    base = os.path.basename(call["path"])
    ts = "2025-03-02-10:55:12.313.101"
    if call["kind"] == "hccp":
        return f"[ERROR] HCCP(12345,python):{ts} [{base}:{call['line']}]tid:12346,{call['func']} : {message}"
    if call["kind"] == "net":
        return f"[ERROR] NET(12345,python):{ts} [{base}:{call['line']}]{call['func']} : {message}"
    if call["kind"] == "report":
        return f"        {message}[FUNC:{call.get('func') or 'Run'}][FILE:{base}][LINE:{call['line']}]"
    if call["kind"] == "caught":
        return f"[ERROR] HCCL(12345,python):{ts} [exception_util.h:62] [12346]Exception occurred: {message}"
    return f"[ERROR] HCCL(12345,python):{ts} [{base}:{call['line']}] [12346]{message}"


def build(src, calls, not_literal, taken, overrides):
    """Entries for one source; `taken` holds formats a source read before already keeps."""
    by_fmt = collections.OrderedDict()
    for c in calls:
        by_fmt.setdefault(c["fmt"], []).append(c)
    skipped = collections.Counter()
    entries, seen, whys = [], set(), collections.Counter()
    for fmt, sites in by_fmt.items():
        if fmt in taken:
            skipped["duplicate"] += 1
            continue
        if R.too_generic(fmt):
            skipped["too_generic"] += 1
            continue
        # The site that logs it directly (HCCL_ERROR, hccp_err) is the one a plog shows.
        site = min(sites, key=lambda c: (c["kind"] not in ("hccl", "hccp", "net", "throw", "ptrmsg"), c["path"], c["line"]))
        codes = [x for c in sites for x in c["codes"]]
        cat, role, symptom_of, why = classify(fmt, codes, site["path"])
        whys[why] += 1
        e = dict(id=R.unique_id(src["family"], fmt, "printf", seen), format=fmt, category=cat, role=role)
        if symptom_of:
            e["symptom_of"] = symptom_of
        if site["kind"] == "report":
            e["level"] = "any"
        e["title"] = R.generated_title("HCCL", fmt)
        e["references"] = [L.blob_url(src["repo"], src["commit"], site["path"], site["line"])]
        e["samples"] = [sample_line(site, L.fill(fmt))]
        e["_why"] = why
        entries.append(e)
        taken.add(fmt)
    for e in entries:
        ov = overrides.get(e["id"])
        if ov:
            R.apply_override(e, ov)
    return entries, skipped, len(by_fmt), whys


def write_file(out, src, entries, found, skipped):
    """Writes the kb/messages file of one source from `build`'s entries (keys the file has no
    field for, such as `_why`, are not written)."""
    header = dict(
        family=src["family"],
        description=f"ERROR-level messages of {src['component']} ({src['repo']}): HCCL_ERROR, hccp_err/roce_err, "
                    "the messages of HCCL's exceptions and error-manager reports. Generated by "
                    "scripts/catalog/extract_hccl.py; texts of the frequent ones in scripts/catalog/overrides/hccl.yaml.",
        source=dict(component=src["component"], repo=src["repo"], commit=src["commit"], formats_found=found,
                    skipped=dict(sorted(skipped.items())) or {"too_generic": 0}),
        defaults=dict(origin="source", layer="hccl", level="error", category="communication", role="cause"),
    )
    os.makedirs(os.path.dirname(out), exist_ok=True)
    R.drop_defaults(entries, header["defaults"])
    L.write_messages_file(out, header, entries)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--doctor", default=os.path.join(ROOT, "build", "src", "npu-doctor"),
                    help="npu-doctor binary used to find samples a hand-written entry already claims")
    ap.add_argument("--report", action="store_true", help="print the category decisions by rule")
    ap.add_argument("--cache", help="directory to keep the calls read from each snapshot in (while tuning the rules)")
    ap.add_argument("--dump", help="write category, role, rule, format and reference of every entry (TSV) here")
    args = ap.parse_args()
    overrides = R.load_overrides(os.path.join(ROOT, "scripts", "catalog", "overrides", "hccl.yaml"))
    taken, produced = set(), []
    for src in SOURCES:
        cache = args.cache and os.path.join(args.cache, f"hccl-{src['key']}-{src['commit']}.json")
        if cache and os.path.exists(cache):
            with open(cache, encoding="utf-8") as f:
                calls, not_literal, nfiles = json.load(f)
        else:
            calls, not_literal, nfiles = read_source(src, args.mirrors)
            if cache:
                with open(cache, "w", encoding="utf-8") as f:
                    json.dump([calls, not_literal, nfiles], f)
        entries, skipped, found, whys = build(src, calls, not_literal, taken, overrides)
        produced.extend(entries)
        # A hand-written entry that recognises the sample decides the category (the runtime
        # drops the catalogue hit on that line anyway; the two must not disagree).
        claims = R.curated_claims([e["samples"][0] for e in entries], args.doctor, os.path.join(ROOT, "kb"))
        agreed = 0
        for i, e in enumerate(entries):
            if i in claims and e["id"] in overrides and e["category"] != claims[i][1]:
                print(f"warning: {e['id']}: override category {e['category']} but {claims[i][0]} "
                      f"(hand-written) says {claims[i][1]}", file=sys.stderr)
            if i in claims and e["id"] not in overrides:
                cid, ccat, crole = claims[i]
                if e["category"] != ccat:
                    agreed += 1
                e["category"] = ccat
                e["_why"] = "curated:" + cid
        if args.dump:
            with open(args.dump + "." + src["key"] + ".tsv", "w", encoding="utf-8") as f:
                for e in entries:
                    f.write("\t".join([e["category"], e.get("role", ""), e["_why"], e["format"].replace("\n", "\\n"),
                                       e["references"][0].split("/blob/")[1].split("/", 1)[1]]) + "\n")
        for e in entries:
            e.pop("_why", None)
        write_file(os.path.join(ROOT, src["out"]), src, entries, found, skipped)
        print(f"{src['out']}: {src['repo']}@{src['commit'][:10]}: {nfiles} files, {len(calls)} calls, "
              f"{not_literal} without a literal format, {found} formats, {len(entries)} entries, skipped {dict(skipped)}, "
              f"{len(claims)} claimed by hand-written entries ({agreed} recategorised)")
        if args.report:
            cats = collections.Counter(e["category"] for e in entries)
            roles = collections.Counter(e.get("role") for e in entries)
            print("  categories:", dict(cats.most_common()))
            print("  roles:", dict(roles.most_common()))
            print("  decided by:", dict(whys.most_common()))
    if not R.check_overrides(overrides, produced, "scripts/catalog/overrides/hccl.yaml"):
        sys.exit(1)


if __name__ == "__main__":
    main()
