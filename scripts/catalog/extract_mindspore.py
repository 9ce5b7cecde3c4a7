#!/usr/bin/env python3
"""MindSpore's Ascend backend: its ERROR-level messages -> kb/messages/mindspore.yaml.

mindspore-ai/mindspore, the parts that run when MindSpore drives Ascend NPUs:
- C++ (mindspore/ccsrc and mindspore/ops): every file whose path names Ascend, ACL, GE, HCCL or
  ATB (plugin/device/ascend: the HAL, kernels, graph optimiser, llm_boost; plugin/res_manager/ascend:
  memory, streams, events, collectives, the HCCL and GE/op adapters; ops/kernel/ascend: the
  aclnn / ACL / AI CPU / pyboost kernels; backend/ge_backend: the GE back end and graph IR
  adapter; the Ascend parts of runtime, debug, minddata). Not the AI CPU kernels that run on the
  device (aicpu_ops: their own KERNEL_LOG to the device's log) and not MindSpore Lite.
  Calls: `MS_LOG(ERROR) << ...` (printed as '[ERROR] DEVICE(pid,tid,python):time [file:line] Func] msg',
  level error), `MS_LOG(EXCEPTION | INTERNAL_EXCEPTION) << ...`, `MS_LOG_WITH_NODE(...)`,
  `MS_EXCEPTION(ValueError) << ...`, `MS_INTERNAL_EXCEPTION(...)` (thrown into Python: the
  traceback's last line is 'RuntimeError: msg', or 'ValueError: msg' ...: log_adapter_py.cc maps
  ValueError, TypeError, IndexError ... to their Python classes and every other type to
  RuntimeError). A `<<` chain is joined: literals kept, other operands as %s. An exception's
  message is shown up to its first '#umsg#' / '#dmsg#' title (the titled parts follow on lines
  of their own, without the exception class: kept, at any level, only with a gate word).
- Python (mindspore/python/mindspore, not tests): the modules whose code (docstrings aside) names
  Ascend, NPU, HCCL, ACL, CANN, GE or the device: raises, asserts with a message, logger.error
  (printed '[ERROR] ME(pid:tid,MainProcess):time [mindspore/x.py:line] msg') and logger.critical.

The hand-written kb/mindspore.yaml and kb/mindspore_device_support.yaml take a line when they
recognise it (catalogue precedence); their categories win for the entries they claim.

usage: extract_mindspore.py [MIRROR] [COMMIT]
  (default /work/.mirror/mindspore-ai+mindspore_test/repo at the pinned commit: the repository
  mindspore-ai/mindspore is larger than a snapshot may be; mindspore-ai/mindspore_test mirrors its
  history, and the commit read is a commit of mindspore-ai/mindspore's master)
"""
import ast
import re
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Record, Rule, context_lines
from c10_messages import stream_args
from fw_cpp import expr_format
from fw_python import is_test_path, python_records

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/mindspore-ai+mindspore_test/repo"
COMMIT = sys.argv[2] if len(sys.argv) > 2 else "a05ce58802d47fba782ecef8d971e05a078727c1"
REPO_NAME = "mindspore-ai/mindspore"

# ---------------------------------------------------------------------------------------------
# Which files

CPP_ROOTS = ("mindspore/ccsrc/", "mindspore/ops/")
CPP_PATH = re.compile(r"ascend|/ge_backend/|hccl|/acl|aclnn|/atb/|/ge/|graph_ir|/dvm/", re.I)
CPP_SKIP = re.compile(r"/aicpu_ops/|/test|_test\.|/lite/|/stub/|/utils/log_adapter")
PY_ROOT = "mindspore/python/mindspore/"
PY_WORDS = re.compile(r"ascend|\bnpu|hccl|\bacl[_a-z]*\b|\bcann\b", re.I)
# The modules that drive the device: one mention is enough; elsewhere a module must name Ascend
# (NPU, HCCL, ACL, CANN) three times in its code (docstrings aside: every operator's docstring
# names its platforms). The code generators and the custom-op build run at build time, not in a job.
PY_CORE = re.compile(r"^(?:context|device_manager|amp)\.py$|^(?:communication|mint/distributed|hal|device_context|run_check|runtime"
                     r"|experimental/llm_boost|parallel/cluster)/")
PY_SKIP = re.compile(r"^(?:ops_generate|custom_compiler)/")


def cpp_paths(files):
    return [p for p in files if p.startswith(CPP_ROOTS) and p.endswith((".cc", ".cpp", ".h")) and CPP_PATH.search(p)
            and not CPP_SKIP.search(p)]


def _code_without_docstrings(text):
    """The module's source with docstrings and comments removed (what the code names)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return ""
    doc_lines = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                doc_lines.update(range(first.lineno, first.end_lineno + 1))
    return "\n".join(re.sub(r"#.*", "", ln) for i, ln in enumerate(text.splitlines(), 1) if i not in doc_lines)


def py_paths(files):
    out = []
    for p in files:
        if not (p.startswith(PY_ROOT) and p.endswith(".py")) or is_test_path(p[len(PY_ROOT):]):
            continue
        rel = p[len(PY_ROOT):]
        if PY_SKIP.search(rel):
            continue
        mentions = len(PY_WORDS.findall(_code_without_docstrings(L.read_file(MIRROR, p, COMMIT))))
        if mentions >= 3 or (mentions and PY_CORE.search(rel)):
            out.append(p)
    return out

# ---------------------------------------------------------------------------------------------
# C++: MS_LOG(ERROR) << ...; MS_LOG(EXCEPTION) << ...; MS_EXCEPTION(ValueError) << ...

# The submodule a directory logs as (each directory's CMakeLists sets SUBMODULE_ID): only the
# sample line shows it; patterns never read it.
SUBMODULES = [(r"/ge_backend/|/op_adapter/|graph_ir", "GE_ADPT"), (r"hccl|/collective/", "HCCL_ADPT"),
              (r"/optimizer/", "PRE_ACT"), (r"/llm_boost/", "LLM_BOOST"), (r"/kernel/|/ops/", "KERNEL"),
              (r"/runtime/", "RUNTIME_FRAMEWORK"), (r"/debug/|/profiler/|/dump/", "DEBUG"), (r"/minddata/", "MD")]

# The Python classes HandleExceptionPy (pybind_api/utils/log_adapter_py.cc) raises; every other
# ExceptionType reaches Python as RuntimeError (std::runtime_error). KeyError prints its message
# quoted ("KeyError: 'msg'"): its format starts with the quote.
PY_CLASSES = {"KeyError", "IndexError", "ValueError", "TypeError", "AttributeError", "NameError", "AssertionError",
              "OverflowError", "ZeroDivisionError", "EnvironmentError", "IOError", "OSError", "MemoryError",
              "NotImplementedError"}

_CALL = re.compile(r"\b(MS_LOG|MS_LOG_WITH_NODE|MS_EXCEPTION|MS_EXCEPTION_WITH_NODE|MS_INTERNAL_EXCEPTION)\s*\(|\bMS_LOG_EXCEPTION\b")
_LABEL = re.compile(r"#[du]msg#")
_FUNC = re.compile(r"^(?:[\w:<>,*&~]+\s+)*[\w:<>*&~]*?(\w+)\s*\(")


def _submodule(path):
    return next((name for rx, name in SUBMODULES if re.search(rx, path)), "DEVICE")


def _function_at(lines, line):
    """The function a line is in: the last definition starting at column 0 before it."""
    for i in range(line - 1, max(0, line - 400), -1):
        ln = lines[i - 1]
        if ln and not ln[0].isspace() and not ln.startswith(("#", "//", "}", "namespace", "using", "class", "struct")):
            m = _FUNC.match(ln)
            if m and m.group(1) not in ("if", "for", "while", "switch", "return"):
                return m.group(1)
    return "Func"


def log_line(message, path, line, func, level="ERROR"):
    return (f"[{level}] {_submodule(path)}(12345,ffff8a7b6c5d,python):2025-03-02-10:55:12.313.101 "
            f"[{path}:{line}] {func}] {message}")


def _chain(clean, start):
    """The `<< a << "b"` chain that starts at `start` (up to the statement's ';'), or ''."""
    if not re.match(r"\s*<<", clean[start:]):
        return ""
    return " << ".join(stream_args(clean, start))


def cpp_records(paths):
    out = []
    for path in paths:
        text = L.read_file(MIRROR, path, COMMIT)
        clean = L.strip_c_comments(text)
        lines = text.splitlines()
        for m in _CALL.finditer(clean):
            line_start = clean.rfind("\n", 0, m.start()) + 1
            if clean[line_start:m.start()].lstrip().startswith("#"):
                continue  # the macro's own #define
            name = m.group(1) or "MS_LOG_EXCEPTION"
            if m.group(1):
                args, end = L._call_args(clean, m.end() - 1)
                if not args:
                    continue
                end += 1
            else:
                args, end = ["EXCEPTION"], m.end()
            first = args[0].strip()
            if name in ("MS_LOG", "MS_LOG_WITH_NODE"):
                if first not in ("ERROR", "EXCEPTION", "INTERNAL_EXCEPTION"):
                    continue
                kind, cls = ("log", "error") if first == "ERROR" else ("raise", "RuntimeError")
            else:
                exc = first.split("::")[-1]
                kind, cls = "raise", (exc if exc in PY_CLASSES else "RuntimeError")
            chain = _chain(clean, end)
            if not chain or '"' not in chain:
                continue
            fmt = expr_format(chain)
            if fmt is None:
                continue
            line = clean.count("\n", 0, m.start()) + 1
            func = _function_at(lines, line)
            fmt = fmt.split("\n")[0]
            if _LABEL.search(fmt):
                head = _LABEL.split(fmt)[0]
                if kind == "raise" and not head.strip(" %s"):
                    # Only titled parts: each is shown on lines of its own, without the class.
                    parts = _LABEL.split(fmt)
                    body = parts[2] if len(parts) > 2 else ""
                    body = body.split("\n")[0].strip()
                    if body:
                        out.append(Record(path, line, body, "printf", "returned", "", "", context_lines(lines, line),
                                          L.fill(body)))
                    continue
                fmt = head
            fmt = fmt.strip()
            if not fmt:
                continue
            if cls == "KeyError":
                fmt = "'" + fmt
            ctx = context_lines(lines, line)
            if kind == "log":
                out.append(Record(path, line, fmt, "printf", "log", "error", "error", ctx,
                                  log_line(L.fill(fmt), path, line, func)))
            else:
                out.append(Record(path, line, fmt, "printf", "raise", cls, "", ctx,
                                  L.exception_line(cls, L.fill(fmt))))
    return out

# ---------------------------------------------------------------------------------------------
# Python


def py_log_line(message, path, line, level="ERROR"):
    """MindSpore's Python logger (mindspore/log.py): '[ERROR] ME(pid:tid,MainProcess):time [mindspore/x.py:line] msg'."""
    rel = path[len("mindspore/python/"):]
    return f"[{level}] ME(12345:281473147734320,MainProcess):2025-03-02-10:55:12.313.101 [{rel}:{line}] {message}"

# ---------------------------------------------------------------------------------------------
# Category and role: MindSpore's own modules and words first, then the shared words.

RULES = [
    # A failure whose reason CANN printed above ("The details refer to 'Ascend Error Message'"):
    # the wrapper of that report, as the hand-written mindspore.kernel-runtime-init-failed is.
    Rule("other", role="wrapper", words=r"the details refer to|ascend error message",
         why="the message points at CANN's 'Ascend Error Message' for the reason"),
    # Settings checked in Python (set_context, device_context.ascend.*, the parallel context): the
    # user fixes the value, which none of the 12 categories names more precisely.
    Rule("other", cls=r"ValueError|TypeError", path=r"python/mindspore/(?:context|device_context/|hal/|_checkparam|parallel/_auto_parallel_context"
         r"|dataset/core/config|runtime/)",
         why="a setting's value or type is checked (set_context, device_context, the parallel context)"),
    # Stream / device synchronisation: the failure happened in a kernel before; the sync reports it.
    Rule("aicore_exception", role="symptom",
         words=r"\bsync(?:hroni[sz]e)?\w* (?:\w+ )?streams?\b|\bstream ?sync\w*|\bsynchronize\w* .{0,20}(?:fail|error)|\bsync default stream|\bsyncstream|\bsync (?:device|stream)\b(?! to )",
         why="a stream or device synchronisation failed: it reports an earlier kernel failure"),
    # A kernel launch that failed: CANN reported the reason above it (as the hand-written
    # mindspore.graph-failed reads "Launch kernel failed, kernel full name: ...").
    Rule("other", role="wrapper", words=r"launch kernel\w* fail|kernel launch\w* fail|launch\w* .{0,30}kernel\w* fail",
         why="a kernel launch failed: CANN's messages above name the reason"),
    # Task / kernel exceptions on the device.
    Rule("aicore_exception",
         words=r"task fail|task exception|exception info|aicore|ai core|aic error|kernel (?:execut\w*|run|running) (?:\w+ )?fail"
         r"|mem(?:ory)? ?(?:access )?(?:out of bounds|illegal)|device (?:task|kernel) (?:abort|error)|uce error|hbm.{0,20}error",
         why="a task or kernel failed on the device"),
    # Out of memory, budgets of device memory, MindSpore's max_device_memory.
    Rule("memory",
         words=r"out of memory|memory (?:is )?not enough|memory isn't enough|not enough memory|insufficient memory|max_device_memory|mempool_block_size"
         r"|device memory .{0,30}(?:exceed|limit|insufficient|not enough)|alloc\w*(?: \w+){0,4} (?:memory )?fail|malloc\w* .{0,30}fail|fail\w* to (?:alloc|malloc)"
         r"|memory (?:size|usage) .{0,40}exceed|exceed\w* .{0,30}memory|\bvmm\b|free memory",
         why="device memory ran out, or MindSpore's memory budget (max_device_memory) is too small"),
    # Installation: the CANN packages MindSpore loads (libraries, the op implementations, versions).
    Rule("install_version_mismatch",
         words=r"dlopen|dlsym|load (?:\w+ )?(?:library|so|plugin)|\.so\b|cann(?: |_)?(?:version|package)|ascend_(?:home|opp|toolkit)|ascend_custom_opp_path"
         r"|opp path|tbe operator implementation|version (?:is )?(?:not|mismatch|incompatible)|soc_?version|soc name|get soc|op info json"
         r"|need by mindspore-ascend|can not find .{0,20}(?:library|path)",
         why="a CANN library, path or version that MindSpore needs is missing or does not fit"),
    # Devices: which NPU a process gets and whether it can open it.
    Rule("permission_device",
         words=r"device (?:is )?(?:busy|occupied)|occupied|used by other|in use|open device|/dev/davinci|permission",
         why="the NPU is taken by another process or cannot be opened"),
    Rule("rank_config",
         words=r"device[_ ]?id\b|device count|rank[_ ]?(?:id|size|table)|group rank|rank ids|group size|world[_ ]size|visible_devices|ms_worker_num|ms_role"
         r"|local_rank|rank_table_file",
         why="the device id, rank or group configuration does not fit the cards"),
    # Collective communication: HCCL and the communicators MindSpore builds on it.
    Rule("communication", path=r"hccl|/collective/|/distributed/|comm_manager",
         words=r"hccl|comm\w*|group|send|recv|receive|all_?reduce|all_?gather|broadcast|reduce_?scatter|all_?to_?all|barrier|timeout|timed out|link|socket|root ?info",
         why="an HCCL communicator or collective MindSpore runs on Ascend failed"),
    Rule("communication", words=r"\bhccl\w*|\blccl\w*|communicat\w+ (?:group|domain)|\bcomm(?:unicator)? (?:init|group)",
         why="the words name HCCL or a communicator"),
    # Kernel selection, operator adapters, aclnn / ACL op compile: what Ascend cannot run as written.
    Rule("compile_op_unsupported",
         words=r"select (?:a )?(?:valid )?kernel|kernel (?:select|info)|not find (?:the )?(?:op ?adapter|kernel|op info|acl|aclnn)|op ?adapter|no adapter|adapter for"
         r"|aclnn\w* (?:\w+ )?(?:not|fail)|getworkspacesize|get workspace size|acl ?op ?compile|aclopcompile|compile op|op compile|tbe|akg|kernel build|build kernel"
         r"|unsupported (?:op|primitive|type|data ?type|format)|not (?:yet )?supported|is not support|not support",
         why="Ascend has no kernel, adapter or aclnn implementation for the operator as given"),
    Rule("compute_overflow_nan", words=r"overflow|\bnan\b|\binf\b|infinity|divide by zero|division by zero",
         why="the words say overflow, NaN or Inf"),
    # Runtime and device start-up: the driver, the ACL runtime, the device's context.
    Rule("driver_firmware_env",
         words=r"aclrtsetdevice|set device|aclinit|acl init|init (?:acl|ascend|device|runtime)|runtime init|initiali[sz]e (?:device|runtime|ascend)|kernel runtime initiali"
         r"|rtsetdevice|create (?:a )?context|set context|aclrtcreatecontext|aclrtsetcurrentcontext|device (?:is )?(?:lost|abnormal|not (?:exist|found))|driver|firmware"
         r"|get device count|aclrtgetdevicecount",
         why="the ACL runtime or the device did not start: driver, firmware or the device itself"),
    # Graph compile / run through GE and the graph optimiser: wrappers of GE's own errors.
    Rule("other", role="wrapper", path=r"/ge_backend/|/graph_ir/|ge_graph|ge_device|ge_kernel|ge_utils",
         words=r"(?:compile|build|run|add|convert|exec\w*|load|init\w*)\s.{0,30}(?:graph|ge)\b.{0,30}fail|graph.{0,30}(?:fail|error)|ge.{0,20}(?:fail|error)",
         why="a GE graph step failed: GE's own messages name the reason"),
    # Wrappers: a callee's return code or error text, nothing of its own.
    Rule("other", role="wrapper",
         words=r"^\W*(?:call|calling|invoke)\b.{0,60}\b(?:fail\w*|error)\b|\bfailed,? ret(?:code)?\b|\bret(?:urn)? ?(?:code|value)?\s*[:=\[]\s*\{\}|error ?code\s*[:=\[]\s*\{\}",

         why="the message reports that a callee failed and carries its return code"),
]

MODULE_RULES = [
    # MindSpore's "network" is the model (a Cell), not a link between hosts.
    Rule("other", words=r"\b(?:eval_|train_|predict_)?network\b|\bnet\b", why="the 'network' of these words is the model (a Cell)"),
    # Dump, profiler, debugger: tooling around the run, not its failure.
    Rule("other", path=r"/debug/|/profiler/|/dump/|data_dump|/rdr/", why="dump / profiler / debugger tooling"),
    # Graph optimiser passes: internal checks of the IR.
    Rule("other", path=r"/optimizer/", why="a graph optimiser pass checked its IR"),
]


def too_generic(fmt, style):
    """The shared test, and: no identifier (`rtStreamCreate`, `RunGraph`, `tensor_move`) and fewer
    than two words of three letters that say something, in fewer than 18 characters of text:
    MindSpore's short messages ("init failed", "Build %s failed.", "Setup failed.") are printed by
    other components too."""
    if F.is_generic(fmt, style):
        return True
    words = set(re.findall(r"[A-Za-z][A-Za-z0-9_]*", " ".join(L.literal_runs(fmt, style))))
    if any(re.search(r"[a-z][A-Z]|_|[A-Za-z]\d|^[A-Z]{2,}[a-z]", w) for w in words if w.lower() not in F.GENERIC_WORDS):
        return False
    if len({w.lower() for w in words if len(w) >= 3 and w.lower() not in F.GENERIC_WORDS}) >= 2:
        return False
    return sum(len(r) for r in L.literal_runs(fmt, style)) < 18


def main():
    commit = L.head_commit(MIRROR, COMMIT)
    files = L.list_files(MIRROR, commit, suffixes=(".cc", ".cpp", ".h", ".py"))
    records = cpp_records(cpp_paths(files))
    records += python_records(MIRROR, commit, py_paths(files), py_log_line)
    for r in records:  # Python prints a KeyError's message quoted
        if r.kind == "raise" and r.cls == "KeyError" and r.style == "python" and not r.fmt.startswith("'"):
            r.fmt, r.sample = "'" + r.fmt, "KeyError: '" + r.sample[len("KeyError: "):]
    for r in records:  # a log line shows a message's first line
        r.fmt = r.fmt.split("\n")[0].rstrip()
    records = [r for r in records if r.fmt.strip()]
    comp = F.Component(
        family="src-mindspore", name="MindSpore (Ascend backend)", label="MindSpore", repo_name=REPO_NAME, mirror=MIRROR,
        commit=commit, out="kb/messages/mindspore.yaml",
        description="ERROR-level messages of MindSpore's Ascend backend (mindspore-ai/mindspore): C++ MS_LOG(ERROR) lines and "
                    "MS_LOG(EXCEPTION) / MS_EXCEPTION(...) raises of the Ascend device plugin, resource manager, kernels "
                    "(aclnn, ACL, AI CPU, pyboost), GE back end and HCCL adapter (stream operands as %s); Python raises and "
                    "logger errors of the modules that drive Ascend.",
        layer="framework", default_category="other", overrides="")
    return F.build(comp, records, RULES + F.GENERAL_STRONG + MODULE_RULES + F.GENERAL_WEAK, generic=too_generic)


if __name__ == "__main__":
    main()
