#!/usr/bin/env python3
"""PyPTO's ERROR-level messages -> kb/messages/pypto.yaml.

hicann/pypto: CANN's tile framework (Python front end `pypto`, the IR front end `pypto_pro`,
C++ in namespace npu::tile_fwk, libtile_fwk_interface.so / pypto_impl). How it reports errors:

- Check macros (framework/include/tilefwk/error.h): ASSERT, CHECK, FE_ASSERT, PASS_ASSERT,
  MACHINE_ASSERT, SIM_ASSERT, ASSERT_WITH_CODE, CHECK_WITH_CODE, TILEFWK_ERROR() followed by a
  `<<` chain. The Error they throw holds 'ASSERT FAILED: ErrCode: F00001! Enum: <code>\\n<message>'
  (older releases: 'ASSERTION FAILED: <condition>\\n<message>'); it is logged (PYPTO_LOGE_FULL)
  and reaches Python as RuntimeError. Either way the message is a line of its own, printed as
  '<message>, func <function>, file <file>, line <n>', with no level marker: such a message is
  kept only when its words hold a gate word (most are counted as skipped.ungated), while the
  first line is kept once per error code spelled at a call ('ASSERT FAILED: ErrCode: F.....!
  Enum: FeError::OP_DEPENDENCY_CYCLE'); CHECK_OP (interface/operation) prints 'CHECK FAILED:
  <the condition as written>' instead, one entry per condition.
- Host logging (framework/include/tilefwk/pypto_fwk_log.h, utils/host_log/log_manager.cpp):
  FE_LOGE, PASS_LOGE, CODEGEN_LOGE, MACHINE_LOGE, ... (errCode, fmt, ...) print
  '[ERROR] PYPTO(<tid>):2025-12-17 14:31:32.491 [file.cpp:12][MODULE]:ErrCode: F40001! Enum: <code> <message>';
  PYPTO_LOGE / PYPTO_LOGE_FULL the same without module and code; AICORE_HOST_LOGE the message only.
  The device's DEV_ERROR (AICPU dlog on the board, the same PYPTO line in simulation) is read too.
  Earlier releases printed these messages as '2025-12-17 14:31:32.491 E | <message>' (the FAQ's
  device-id example), which the scanner does not read as an error level: an entry whose words
  already hold a gate word therefore stays `level: any` and recognises both forms.
- The IR front end (framework/include/core/logging.h): IR_LOGE / LOG_ERROR_F print
  '2025-12-17 14:31:32.491 E | <message>' (no level marker the scanner knows); IRCHECK and
  INTERNAL_CHECK(_SPAN) throw ir::ValueError / ir::InternalError, raised in Python as
  ValueError / pypto.InternalError with the message first.
- Python (python/pypto, python/pypto_pro): raises, asserts with a message, logger errors
  (root-logger calls print 'ERROR:root:<message>', named loggers without a configured handler
  print the message only).

usage: extract_pypto.py [MIRROR]   (default /work/.mirror/hicann+pypto/repo)
"""
import os
import re
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Record, Rule, context_lines
from fw_cpp import expr_format
from fw_python import is_test_path, python_records

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/hicann+pypto/repo"
TIME = "2025-12-17 14:31:32.491"

# Check macros: macro -> index of the condition (the message is the `<<` chain after the call).
CHECK_MACROS = ["CHECK_OP", "ASSERT", "CHECK", "FE_ASSERT", "PASS_ASSERT", "MACHINE_ASSERT", "SIM_ASSERT", "ASSERT_WITH_CODE",
                "CHECK_WITH_CODE", "TILEFWK_ERROR"]
# The code a check macro prints when the call names none (error.h).
DEFAULT_CODES = {"ASSERT": "npu::tile_fwk::InternalError::COMMON_INNER_ERROR",
                 "CHECK": "npu::tile_fwk::ExternalError::COMMON_EXTERNAL_ERROR",
                 "FE_ASSERT": "npu::tile_fwk::InternalError::FE_INNER_ERROR",
                 "PASS_ASSERT": "npu::tile_fwk::InternalError::PASS_INNER_ERROR",
                 "MACHINE_ASSERT": "npu::tile_fwk::InternalError::MACHINE_INNER_ERROR",
                 "SIM_ASSERT": "npu::tile_fwk::InternalError::SIM_INNER_ERROR"}
# IR checks: macro -> the Python class the exception is raised as.
IR_CHECKS = {"IRCHECK": "ValueError", "INTERNAL_CHECK": "InternalError", "INTERNAL_CHECK_SPAN": "InternalError"}
# Host log macros with an error code: macro -> the module they print.
CODE_LOGS = {"FE_LOGE": "FUNCTION", "PASS_LOGE": "PASS", "CODEGEN_LOGE": "CODEGEN", "MACHINE_LOGE": "MACHINE",
             "DISTRIBUTED_LOGE": "DISTRIBUTED", "SIMULATION_LOGE": "SIMULATION", "VERIFY_LOGE": "VERIFY",
             "VERIFY_LOGE_FULL": "VERIFY", "COMPILER_LOGE": "COMPILER_MONITOR", "ADAPTER_LOGE": "ADAPTER",
             "PLATFORM_LOGE": "PLATFORM", "MATMUL_LOGE": "MATMUL", "CONV_LOGE": "CONV", "VECTOR_LOGE": "VECTOR",
             "DEV_ERROR": "MACHINE", "DEV_TRACE_LOG_ERROR": "MACHINE", "DEV_ASSERT_MSG": "MACHINE",
             "PYPTO_HOST_LOGE_WITH_ERRCODE": None, "PYPTO_SIM_LOGE_WITH_ERRCODE": None}
# DEV_ASSERT(errCode, expr): DEV_ERROR(errCode, "Assertion failed (%s)", #expr).
PLAIN_LOGS = ["PYPTO_LOGE", "PYPTO_LOGE_FULL", "AICORE_HOST_LOGE", "LOG_ERROR_F"]
# Where the macros are defined (not calls).
MACRO_FILES = re.compile(r"(?:tilefwk/error\.h|pypto_fwk_log\.h|tilefwk_log\.h|core/logging\.h|machine/utils/device_log\.h)$")


def host_line(message, path, line, module=None, code=None):
    """LogManager's line: '[ERROR] PYPTO(<tid>):<time> [file:line][MODULE]:ErrCode: F..! Enum: <code> <message>'."""
    head = f"[ERROR] PYPTO(281473):{TIME} [{os.path.basename(path)}:{line}]"
    if module:
        head += f"[{module}]"
    head += ":"
    if code:
        head += f"ErrCode: F40001! Enum: {code} "
    return head + message


def check_line(message, path, line, func="Compile"):
    """The check macros' message line (Error::DiagnosticWithBacktrace)."""
    return f"{message}, func {func}, file {os.path.basename(path)}, line {line}"


def ir_line(message):
    """pypto::Logger ('2025-12-17 14:31:32.491 E | <message>')."""
    return f"{TIME} E | {message}"


def stringified(arg):
    """What the preprocessor's #x makes of a macro argument (whitespace runs as one space);
    None for an argument holding a string literal (its quotes would be escaped)."""
    text = re.sub(r"\s+", " ", arg.strip())
    return None if '"' in text or "'" in text or not text else text


def first_line(fmt):
    return fmt.split("\n")[0].strip() if fmt else fmt


def _chain_after(clean, end):
    m = re.match(r"\s*<<(.*?);", clean[end + 1:], re.S)
    return m.group(1) if m else None


def _enclosing_function(lines, line):
    """The name of the C++ function around a line (a guess for the sample's 'func ...')."""
    for i in range(line - 1, max(0, line - 200), -1):
        m = re.match(r"^(?:[\w:<>,*&~ ]+\s)?(?:\w+::)*(~?\w+)\s*\([^;]*$", lines[i])
        if m and m.group(1) not in ("if", "for", "while", "switch", "return", "ASSERT", "CHECK") and not lines[i].startswith(" "):
            return m.group(1)
    return "Compile"


def cpp_records(commit, paths):
    out = []
    check_pat = re.compile(r"\b(" + "|".join(CHECK_MACROS + list(IR_CHECKS)) + r")\s*\(")
    for path in paths:
        if MACRO_FILES.search(path):
            continue
        text = L.read_file(MIRROR, path, commit)
        clean = L.strip_c_comments(text)
        lines = text.splitlines()
        # Check macros: each call found once gives its `<<` message (the line printed after the
        # first) and its first line, '<ASSERT|CHECK> FAILED: ErrCode: F.....! Enum: <code as
        # written>' (CHECK_OP's 'CHECK FAILED: <the condition as written>'). The first lines are
        # kept apart so that a file's records stay in the order: messages, then first lines.
        first_lines = []
        for m in check_pat.finditer(clean):
            start = clean.rfind("\n", 0, m.start()) + 1
            if clean[start:m.start()].lstrip().startswith("#"):
                continue
            args, end = L._call_args(clean, m.end() - 1)
            if args is None:
                continue
            name = m.group(1)
            line = clean.count("\n", 0, m.start()) + 1
            ctx = context_lines(lines, line)
            chain = _chain_after(clean, end)
            full = expr_format(chain) if chain and '"' in chain else None
            fmt = first_line(full)
            if fmt:
                if name in IR_CHECKS:
                    out.append(Record(path, line, fmt, "printf", "raise", IR_CHECKS[name], "", ctx,
                                      L.exception_line(IR_CHECKS[name], L.fill(fmt))))
                else:
                    sample = L.fill(fmt)
                    if "\n" not in full.strip():  # ', func f, file x.cpp, line n' follows the message's last line
                        sample = check_line(sample, path, line, _enclosing_function(lines, line))
                    out.append(Record(path, line, fmt, "printf", "log", name, "", ctx, sample))
            if name in IR_CHECKS or name == "TILEFWK_ERROR" or not args:
                continue
            if name == "CHECK_OP":
                cond = stringified(args[0])
                if cond:
                    fmt = "CHECK FAILED: " + cond.replace("%", "%%")
                    first_lines.append(Record(path, line, fmt, "printf", "log", "condition", "", ctx,
                                              f"[ERROR] PYPTO(281473):{TIME} [error.cpp:111]:" + L.fill(fmt)))
                continue
            code = re.sub(r"\s+", "", args[0]) if len(args) >= 2 else DEFAULT_CODES[name]
            if not re.fullmatch(r"[\w:]+", code):
                continue
            fmt = f"{'CHECK' if name.startswith('CHECK') else 'ASSERT'} FAILED: ErrCode: F%05X! Enum: {code}"
            first_lines.append(Record(path, line, fmt, "printf", "log", "errcode", "", ctx,
                                      f"[ERROR] PYPTO(281473):{TIME} [error.cpp:111]:" + L.fill(fmt)))
        out += first_lines
        # Log macros (printf formats).
        for name, args, line in L.find_c_calls(text, list(CODE_LOGS) + PLAIN_LOGS + ["IR_LOGE", "IR_LOGF", "DEV_ASSERT"]):
            ctx = context_lines(lines, line)
            if name in ("IR_LOGE", "IR_LOGF"):
                continue  # `IR_LOGE() << ...`: read below
            if name == "DEV_ASSERT":
                cond = stringified(args[1]) if len(args) == 2 else None
                if cond:
                    fmt = "Assertion failed (" + cond.replace("%", "%%") + ")"
                    out.append(Record(path, line, fmt, "printf", "log", name, "error", ctx,
                                      host_line(L.fill(fmt), path, line, "MACHINE", args[0].strip())))
                continue
            if name in CODE_LOGS:
                idx = 2 if name == "DEV_ASSERT_MSG" else 1
                if len(args) <= idx:
                    continue
                fmt = L.c_format_of(args[idx])
                if fmt is None:
                    continue
                if name == "DEV_ASSERT_MSG":
                    cond = stringified(args[1])
                    fmt = "Assertion failed (" + (cond.replace("%", "%%") if cond else "%s") + "): " + fmt
                module = CODE_LOGS[name] or (args[0].strip() if name.startswith("PYPTO_") else None)
                code = args[0].strip() if not name.startswith("PYPTO_") else (args[1].strip() if len(args) > 1 else "")
                if name.startswith("PYPTO_"):
                    fmt = L.c_format_of(args[2]) if len(args) > 2 else None
                    if fmt is None:
                        continue
                fmt = first_line(fmt)
                sample = host_line(L.fill(fmt), path, line, module, code)
            else:
                fmt = L.c_format_of(args[0]) if args else None
                fmt = first_line(fmt)
                if not fmt or fmt.strip() == "%s":
                    continue
                if name == "LOG_ERROR_F":
                    sample = ir_line(L.fill(fmt))
                elif name == "AICORE_HOST_LOGE":
                    sample = f"[ERROR] PYPTO(281473):{TIME} {L.fill(fmt)}"
                else:
                    sample = host_line(L.fill(fmt), path, line)
            if not fmt:
                continue
            out.append(Record(path, line, fmt, "printf", "log", name, "error", ctx, sample))
        for m in re.finditer(r"\bIR_LOG[EF]\s*\(\s*\)", clean):
            chain = _chain_after(clean, m.end() - 1)
            if not chain or '"' not in chain:
                continue
            fmt = first_line(expr_format(chain))
            if not fmt:
                continue
            line = clean.count("\n", 0, m.start()) + 1
            out.append(Record(path, line, fmt, "printf", "log", "IR_LOGE", "", context_lines(lines, line), ir_line(L.fill(fmt))))
    return out


EXCEPTION_TRACKING = "framework/src/machine/runtime/runner/device_error_tracking.cpp"
EXCEPTION_LINE = "[Error]: %s, device_id: %u, stream_id: %u, task_id: %u, retcode: %u, kernelName: %s"


def exception_records(commit):
    """PyPTOExceptionInfoCallBack: the runtime's exception callback prints '[Error]: <text of the
    retcode>, device_id: ..., retcode: ..., kernelName: ...' for a failed device task, the text
    taken from a table of the runtime's codes; one entry per text (and the line for a code the
    table does not hold)."""
    text = L.read_file(MIRROR, EXCEPTION_TRACKING, commit)
    lines = text.splitlines()
    out = []
    call = next(i + 1 for i, ln in enumerate(lines) if '"[Error]: %s, device_id' in ln)
    for i, ln in enumerate(lines):
        m = re.match(r'\s*\{PYPTO_DEVICE_ERROR_\w+,\s*"([^"]+)"\}', ln)
        if not m:
            continue
        fmt = EXCEPTION_LINE.replace("%s", m.group(1).replace("%", "%%"), 1)
        out.append(Record(EXCEPTION_TRACKING, i + 1, fmt, "printf", "log", "exception_callback", "", "\n".join(lines[i:i + 1]),
                          L.fill(fmt).replace("kernelName: foo", "kernelName: TENSOR_main_0_aiv")))
    out.append(Record(EXCEPTION_TRACKING, call, EXCEPTION_LINE, "printf", "log", "exception_callback", "", "",
                      L.fill(EXCEPTION_LINE)))
    return out


# The exception callback's texts (the runtime's retcodes): what each says the device did.
EXCEPTION_RULES = [
    Rule("compute_overflow_nan", path=r"device_error_tracking", words=r"(?:aicore|aivec|common) over flow",
         why="the device reported a floating-point overflow of a kernel"),
    Rule("driver_firmware_env", path=r"device_error_tracking", words=r"mem error|ecc|heartbeat|drv internal|ts internal|sys dma|device setup",
         why="the device's memory, task scheduler or driver failed"),
    Rule("memory", path=r"device_error_tracking", words=r"oom|memory allocation|memory free|invalid memory|malloc",
         why="a device memory allocation failed"),
    Rule("resource", path=r"device_error_tracking", words=r"no \w+ resource|resource alloc|task full|over limit|queue is full",
         why="the runtime ran out of streams, events, notifies or task slots"),
    Rule("communication", path=r"device_error_tracking", words=r"link error|remote|hccl|hdc|socket",
         why="a link or a remote device failed"),
    Rule("permission_device", path=r"device_error_tracking", words=r"no device|no permission",
         why="the device is missing or not accessible"),
    Rule("install_version_mismatch", path=r"device_error_tracking", words=r"soc version|symbol not found",
         why="the kernel does not fit the installed CANN / SoC"),
    Rule("aicore_exception", path=r"device_error_tracking",
         words=r"^\[error\]: (?:\{\},|[^,]*(?:aicore|aicpu|vector core|ffts|trap|time ?out|abort|model execute|kernel|exception))",
         why="a kernel task failed or timed out on the device"),
    Rule("rank_config", path=r"device_error_tracking", words=r"^\[error\]: invalid device id",
         why="the task was issued to a device id that does not exist"),
    Rule("other", path=r"device_error_tracking", why="a runtime status of the task (streams, capture, contexts) with no cause of its own"),
]


# The check macros' first line: what the error code's name says (words joined by '_').
CODE_RULES = [
    Rule("other", cls="errcode", role="wrapper", words=r"enum: [\w:]*(?:common_\w+|_inner_error|::unknown)$",
         why="a default code: the message on the next line says what failed"),
    Rule("install_version_mismatch", cls="errcode", words=r"enum: [\w:]*(?:include_file_not_found|pto_isa_not_found|load_library|version|no_so)",
         why="the code says a header, library or version of the CANN install is missing"),
    Rule("compile_op_unsupported", cls="errcode", words=r"enum: [\w:]*(?:compile|cycle|loop_detection|topology|graph_)",
         why="the code says the kernel did not compile or the graph is not a DAG"),
    Rule("memory", cls="errcode", words=r"enum: [\w:]*(?:alloc_failed|alloc_resource|malloc|memory_allocation|buffer_limit|workspace_capacity|oom\b)",
         why="the code says an allocation or a buffer limit failed"),
    Rule("rank_config", cls="errcode", words=r"enum: [\w:]*(?:world_size|group_(?:count|index|name)|hccl_topo)",
         why="the code says the ranks or the communication group do not fit"),
    Rule("compile_op_unsupported", cls="errcode",
         words=r"enum: [\w:]*(?:unsupported|not_supported|not_implemented|opcode|op_code|invalid_operation|invalid_type|dtype"
         r"|data_type|format|platform_not)",
         why="the code says the operation, data type or format is not supported"),
    Rule("compile_shape", cls="errcode",
         words=r"enum: [\w:]*(?:shape|tile|_dim|dim_|rank|offset|out_of_range|align|numel|_size|size_|axis|blocksize)",
         why="the code says a shape, tile, dimension or range check failed"),
    Rule("other", cls="errcode", why="the code names an internal check"),
]


_ROOT_CALL = re.compile(r"\blogging\s*\.\s*(?:error|exception|critical|fatal)\s*\(")
_PY_TEXT = {}


def py_log_line(message, path, line, level="ERROR"):
    """Root-logger calls (logging.error) print 'ERROR:root:<message>' (logging's basicConfig,
    as the FAQ's 'ERROR:root:Record function ... failed' shows); a named logger with no handler
    configured falls back to logging's last resort, which prints the message only."""
    text = _PY_TEXT.get(path)
    if text is None:
        text = _PY_TEXT[path] = L.read_file(MIRROR, path, COMMIT).splitlines()
    call = "\n".join(text[max(0, line - 1):line + 1])
    if _ROOT_CALL.search(call):
        return f"{level}:root:{message}"
    return message


RULES = [
    # The device of the process: not set, wrong id.
    Rule("rank_config", words=r"device ?id|set ?device|set_device|devid\b|device_id|deviceid|invalid device\b|get device\b",
         why="the process has no device set, or the device id is wrong"),
    # Versions, packages, libraries and the CANN toolkit.
    Rule("install_version_mismatch",
         words=r"\bversion|\.so\b|dlopen|dlsym|dlerror|lib\w+\.so|undefined symbol|symbol not found|ascend_home|ascend_toolkit|toolkit|cann (?:path|package|home)"
         r"|set_env|pybind11|not installed|please install|package|ld_library_path|librar(?:y|ies)",
         why="a library, package or version PyPTO needs is missing or does not fit"),
    # Kernel exceptions reported by the device / the AICPU scheduler.
    Rule("aicore_exception",
         words=r"(?:aicore|aic|aiv|aicpu|core|kernel|device|task)\w* .{0,40}(?:exception|trap|fault|abort)|exception .{0,30}(?:aicore|aicpu|aic\b|aiv\b|core)"
         r"|aicore error|core ?dump|\bhang\b|deadlock|\bstuck\b",
         why="an AICore / AICPU kernel raised an exception or hung on the device"),
    # The device's scheduler checking its own tables and allocators: internal invariants, not the
    # user's shapes or a shortage of memory.
    Rule("other", path=r"^framework/src/machine/(?:device|utils)/",
         words=r"^(?!.*(?:insufficient|not enough|out of memory|\boom\b|exceed)).*(?:out of (?:range|bound)|index|\boob\b|assertion failed)",
         why="an internal invariant of the device scheduler"),
    # Memory: workspace, device allocations, on-chip buffers.
    Rule("memory",
         words=r"workspace\w* .{0,30}(?:insufficient|not enough|too small|exceed|fail|capacity)|(?:alloc|malloc)\w* .{0,20}workspace"
         r"|\b(?:m|re|c)?alloc(?:ate|ation)?\b|\balloc\w* .{0,30}fail|fail\w* .{0,20}alloc|malloc|out of memory|\boom\b|memory (?:is )?(?:not enough|insufficient|exhaust|exceed|limit)"
         r"|not enough (?:\w+ )?memory|insufficient (?:\w+ )?memory|exceeds? .{0,40}(?:memory|buffer|\bub\b|\bl1\b|\bl0)"
         r"|buffer .{0,20}(?:overflow|exceed|not enough)|mem ?pool|memory pool|oversize",
         why="a workspace, device allocation or on-chip buffer does not fit"),
    # The kernel compiler (bisheng / ccec) and code generation.
    Rule("compile_op_unsupported",
         words=r"bisheng|\bccec\b|compilecce|docompilecmd|compile ?cmd|compil(?:e|ing|ation) .{0,30}fail|fail\w* .{0,30}compil"
         r"|stack frame|codegen",
         why="compiling the generated kernel failed"),
    # Graphs: cycles, topology, unprocessed operations.
    Rule("compile_op_unsupported",
         words=r"cycle detected|\bcycle\b.{0,30}(?:graph|detect|found|exist)|(?:has|form\w*|is) (?:a )?(?:cycle|circle|ring)\b|\bcircle\b|topolog|not fully processed|\bdag\b|loop check|out ?degree|in ?degree",
         why="the operation graph the program builds is not a DAG"),
    # Operations, data types and features PyPTO does not support.
    Rule("compile_op_unsupported",
         words=r"not supported|unsupported|not support|only supports?\b|does not support|doesn't support|not implemented"
         r"|\bdtype\b|data ?type|dt_\w+|bf16|fp16|fp32|int8|\bopcode\b|unknown op|invalid op",
         why="the operation, data type or option is not supported"),
    # Tile shapes, alignment, shapes and dimensions.
    Rule("compile_shape",
         words=r"tile ?shape|tileshape|tile_shape|vec ?tile|cube ?tile|\btile\b|align|shape|\bdims?\b|dimension|\baxis\b|axes"
         r"|stride|\boffset|broadcast|\brank of\b|\bndim|last dim|must be (?:equal|greater|less|a multiple|divisible)"
         r"|divisible|multiple of|out of (?:range|bound)|exceed\w* .{0,20}(?:range|bound|size)",
         why="a tile shape, alignment, shape or dimension check failed"),
    # Distributed: ranks and communication groups.
    Rule("rank_config", path=r"distributed", words=r"\brank|world ?size|group",
         why="the ranks or the communication group of a distributed kernel do not fit"),
    Rule("communication", path=r"distributed|shmem", words=r"timeout|timed out|shmem|signal|wait",
         why="a distributed kernel's wait on other ranks failed"),
    # Timeouts of the device's task scheduling.
    Rule("aicore_exception", path=r"machine/", words=r"timeout|timed out|handshake",
         why="the device task did not finish in time"),
]

MODULE_RULES = [
    # Operations' checks of their inputs are what the user's kernel asked for.
    Rule("compile_shape", path=r"interface/(?:operation|tileop|tensor)/", words=r"size|length|len\b|count|range|index|\bnum",
         why="an operation's size / index check of its inputs failed"),
    Rule("compile_op_unsupported", path=r"interface/(?:operation|tileop)/", why="an operation rejected its inputs"),
    # The pypto_pro DSL front end (parser, language) and the IR's checks of user-facing values
    # (IRCHECK: ValueError / TypeError): the kernel as written is not accepted.
    Rule("compile_op_unsupported", cls=r"Parser\w*Error|FinalRejectionError|InvalidOperationError",
         why="the DSL front end rejected the kernel's code"),
    Rule("compile_op_unsupported", path=r"^python/pypto_pro/language/", cls=r"(?!InternalError)\w+",
         why="the DSL front end rejected the kernel's code"),
    Rule("compile_op_unsupported", path=r"^framework/src/interface/(?:ir|pypto_pro)/", cls=r"ValueError|TypeError",
         why="an IR check of the kernel's values or types failed"),
    # Passes and code generation: the program cannot be lowered as written.
    Rule("compile_op_unsupported", path=r"^framework/src/(?:passes|codegen)/|pypto_pro/(?:codegen|backend)",
         why="a compile pass or the code generator could not lower the program"),
]

COMMIT = None
# Formats whose every line an entry of another catalogue file takes (as check_catalogue.py
# finds): GE's 'Failed to create directory:%s.' has as much literal text and wins the tie.
TAKEN_ELSEWHERE = {"Failed to create directory: %s"}


def main():
    global COMMIT
    COMMIT = L.head_commit(MIRROR)
    files = L.list_files(MIRROR, COMMIT, suffixes=(".h", ".hpp", ".cpp", ".cc", ".py"))
    cpp = [p for p in files if p.startswith(("framework/src/", "framework/include/", "python/src/"))
           and p.endswith((".h", ".hpp", ".cpp", ".cc")) and "/tests/" not in p and "/stubs/" not in p]
    py = [p for p in files if p.startswith(("python/pypto/", "python/pypto_pro/")) and p.endswith(".py")
          and not is_test_path(p)]
    records = cpp_records(COMMIT, cpp) + exception_records(COMMIT)
    seen = {r.fmt for r in records}
    # A Python message spelled exactly like a C++ one (one text in both layers) is one entry.
    records += [r for r in python_records(MIRROR, COMMIT, py, py_log_line) if r.fmt not in seen]
    # `level: error` only where the printed line carries a marker the scanner reads, and only
    # where the words hold no 'error' / 'fail' (literals of every gate): such an entry also
    # recognises the releases' other forms ('... E | <message>', the AICPU's message line after
    # its plog header). 'exception' / 'timeout' are not always gate literals: keep the level.
    for r in records:
        if r.kind != "log":
            continue
        worded = any(w in run.lower() for run in L.literal_runs(r.fmt.split("\n")[0]) for w in ("error", "fail"))
        r.level = "error" if (r.level == "error" and L.is_error_level_line(r.sample) and not worded) else ""
    records = [r for r in records if r.fmt not in TAKEN_ELSEWHERE]
    comp = F.Component(
        family="src-pypto", name="PyPTO", label="PyPTO", repo_name="hicann/pypto", mirror=MIRROR, commit=COMMIT,
        out="kb/messages/pypto.yaml",
        description="ERROR-level messages of PyPTO (hicann/pypto, CANN's tile framework: npu::tile_fwk, "
                    "libtile_fwk_interface.so, the pypto / pypto_pro Python packages): the check macros' messages "
                    "(ASSERT / CHECK / FE_ASSERT ... << message, printed on their own line as '<message>, func f, "
                    "file x.cpp, line n'), host log errors ('[ERROR] PYPTO(tid):time [file:line][MODULE]:ErrCode: "
                    "F.....! Enum: <code> <message>'), the device's DEV_ERROR, the IR front end's IR_LOGE "
                    "('time E | message') and IRCHECK / INTERNAL_CHECK (raised as ValueError / InternalError), "
                    "Python raises, asserts and logger errors. Stream operands are %s.",
        layer="framework", default_category="other", overrides="scripts/catalog/overrides/pypto.yaml")
    # No ranks or links outside the distributed kernels (read by RULES): a timeout here is a
    # thread or the device's scheduler waiting, not a peer.
    weak = [r for r in F.GENERAL_WEAK if r.category not in ("rank_config", "communication")]
    F.build(comp, records, CODE_RULES + EXCEPTION_RULES + RULES + F.GENERAL_STRONG + MODULE_RULES + weak, generic=is_generic)


# A compiler's output passed through ('stdout: {}', 'stderr: {}') says nothing of its own.
OUTPUT_WORDS = {"stdout", "stderr", "output", "detail", "details", "reason", "traceback"}


def is_generic(fmt, style):
    words = re.findall(r"[a-z][a-z0-9_]*", " ".join(L.literal_runs(fmt, style)).lower())
    return F.is_generic(fmt, style) or not any(len(w) >= 3 and w not in F.GENERIC_WORDS | OUTPUT_WORDS for w in words)


if __name__ == "__main__":
    main()
