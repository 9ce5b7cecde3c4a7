#!/usr/bin/env python3
"""The CANN runtime's ERROR-level messages -> kb/messages/runtime.yaml (family src-runtime).

Source: hicann/runtime (a snapshot brought with the search tool's `fetch`, read with git).
What is read (and why):
  src/runtime, src/tprt, src/runtime_compact   the runtime (plog module RUNTIME)
  src/acl                                      AscendCL (ASCENDCL)
  src/tsd                                      the host side of the device daemon (TDT)
  src/platform                                 SoC / platform info (prints as FE)
  src/dfx/msprof, src/dfx/adump, src/dfx/trace profiling (PROFILING), dump/adx (IDEDD), trace (ATRACE)
  src/dfx/error_manager                        the error manager itself
  src/aicpu_sched, src/queue_schedule          device-side AI CPU scheduler (CCECPU/AICPU): their
                                               lines reach users through device logs and the
                                               runtime's device-error reports
Left out: src/dfx/log (the log daemon's own self-log, written to its private file, not to plogs),
src/mmpa, src/cmodel_driver (the simulator), tests, stubs, examples.

ERROR level means: the call reaches dlog_error / DlogRecord(.., DLOG_ERROR, ..) / Dlog(.., DLOG_ERROR)
/ RecordErrorLog (the runtime's RT_LOG(RT_LOG_ERROR, ...), RT_LOG_INNER_MSG, RT_LOG_CALL_MSG,
RT_LOG_OUTER_MSG, COND_RETURN_ERROR ...), or the error manager (REPORT_INNER_ERROR / REPORT_CALL_ERROR,
whose text the exception's "TraceBack" shows), or the runtime's error-code table
(RT_LOG_OUTER_MSG_IMPL(ErrorCode::EE1003, ...), printed through RecordErrorLog). The macro layers
are expanded, not listed (c_macro_expand.py).

Left out (counted in the file's `skipped`): formats with no literal of 4 characters
(too_generic) and formats whose words only say that something failed ("failed %d",
"retCode=%#x."): they would match almost any error line (content_free).

Usage: extract_runtime.py [--repo DIR] [--out FILE] [--dump-tsv FILE]
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import c_macro_expand as cme  # noqa: E402
import cann_source  # noqa: E402
import catalog_lib as lib  # noqa: E402
import cann_entries  # noqa: E402

REPO_NAME = "hicann/runtime"
DEFAULT_REPO = "/work/.mirror/hicann+runtime/repo"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

INCLUDED = ("src/runtime/", "src/tprt/", "src/runtime_compact/", "src/acl/", "src/tsd/", "src/platform/",
            "src/dfx/msprof/", "src/dfx/adump/", "src/dfx/trace/", "src/dfx/error_manager/", "src/aicpu_sched/",
            "src/queue_schedule/", "src/inc/", "pkg_inc/", "include/")
HEADERS_ONLY = ("src/inc/", "pkg_inc/", "include/")   # macros from there, no calls counted
# Timing dumps that only TEMP_PERFORMANCE builds compile: not messages of a released runtime.
EXCLUDED_MACROS = {"TIMESTAMP_DUMP"}


def keep(path):
    if not path.startswith(INCLUDED):
        return False
    parts = path.split("/")
    return not any(p in ("tests", "test", "ut", "st", "stub", "stubs", "testcase", "examples") for p in parts)


E, O = "error", "other"
LEVEL_WORDS = {"RT_LOG_ERROR": E, "DLOG_ERROR": E, "LOG_ERR": E,
               "RT_LOG_WARNING": O, "RT_LOG_INFO": O, "RT_LOG_DEBUG": O, "RT_LOG_EVENT": O,
               "RT_LOG_WARNING_EVENT": O, "DLOG_WARN": O, "DLOG_INFO": O, "DLOG_DEBUG": O, "DLOG_EVENT": O,
               "LOG_WARNING": O, "LOG_INFO": O, "LOG_DEBUG": O, "LOG_NOTICE": O}


def error_code_table(files):
    """RUNTIME_ERROR_CODE_TABLE (error_code_meta.h): code -> (message template, level)."""
    text = files.get("src/runtime/core/inc/common/error_code_meta.h", "")
    clean = lib.strip_c_comments(text).replace("\\\n", " ")
    table = {}
    for m in re.finditer(r"\bX\(\s*(\w+)\s*,", clean):
        args, _ = lib._call_args(clean, m.end() - len(m.group(0)) + m.group(0).index("("))
        if not args or len(args) < 5:
            continue
        fmt = lib.c_format_of(args[3])
        if fmt is None:
            continue
        level = E if "ERROR" in args[4] else O
        table[args[0].strip()] = (fmt.rstrip("\n"), level)
    return table


def sinks(table):
    return [
        cme.Sink("dlog_error", fmt=1, module=("arg", 0)),
        cme.Sink("dlog_warn", fmt=1, level=("const", O), module=("arg", 0)),
        cme.Sink("dlog_info", fmt=1, level=("const", O), module=("arg", 0)),
        cme.Sink("dlog_debug", fmt=1, level=("const", O), module=("arg", 0)),
        cme.Sink("dlog_event", fmt=1, level=("const", O), module=("arg", 0)),
        cme.Sink("Dlog", fmt=2, level=("arg", 1), module=("arg", 0)),
        cme.Sink("DlogSub", fmt=3, level=("arg", 2), module=("arg", 0)),
        cme.Sink("DlogRecord", fmt=2, level=("arg", 1), module=("arg", 0)),
        cme.Sink("syslog", fmt=1, level=("arg", 0)),
        cme.Sink("RecordErrorLog", fmt=3, module=("const", "RUNTIME")),
        cme.Sink("RecordLog", fmt=4, level=("arg", 0), module=("const", "RUNTIME")),
        # The error manager: the text shows in the exception's TraceBack ("...[FUNC:x][FILE:y][LINE:n]").
        cme.Sink("REPORT_INNER_ERROR", fmt=1),
        cme.Sink("REPORT_CALL_ERROR", fmt=1),
        cme.Sink("REPORT_INNER_ERR_MSG", fmt=1),
        cme.Sink("REPORT_USER_DEFINED_ERR_MSG", fmt=1),
        # The runtime's error-code table, filled with the call's values.
        cme.Sink("RT_LOG_OUTER_MSG_IMPL", kind="table", code=0, values=1, table=table, module=("const", "RUNTIME")),
    ]


def default_module(path):
    for prefix, module in (("src/acl/", "ASCENDCL"), ("src/tsd/", "TDT"), ("src/dfx/msprof/", "PROFILING"),
                           ("src/dfx/adump/", "IDEDD"), ("src/dfx/trace/", "ATRACE"), ("src/platform/", "FE"),
                           ("src/aicpu_sched/", "CCECPU"), ("src/queue_schedule/", "AICPU")):
        if path.startswith(prefix):
            return module
    return "RUNTIME"


def collect(repo):
    files = cann_source.read_tree(repo, keep)
    table = error_code_table(files)
    formats, non_literal = cann_source.collect(files, sinks(table), LEVEL_WORDS, default_module,
                                               exclude_from_calls=lambda p: p.startswith(HEADERS_ONLY),
                                               exclude_macros=EXCLUDED_MACROS)
    # RecordErrorLog prints a message on one line (line breaks inside become spaces), so a
    # RUNTIME format is recorded as it prints.
    merged = {}
    for fmt, f in formats.items():
        if f.module == "RUNTIME" and "\n" in fmt.rstrip("\n"):
            fmt = re.sub(r"\n(?!$)", " ", fmt.rstrip("\n")) + "\n" * (len(fmt) - len(fmt.rstrip("\n")))
        if fmt in merged:
            merged[fmt].places.extend(f.places)
        else:
            f.format = fmt
            merged[fmt] = f
    formats = merged
    # The table's own templates are printed as they are when a call passes values we cannot see.
    for code, (tmpl, level) in table.items():
        if level == E and tmpl not in formats:
            f = formats[tmpl] = cann_source.Format(tmpl)
            line = next((i + 1 for i, ln in enumerate(files["src/runtime/core/inc/common/error_code_meta.h"].split("\n"))
                         if f'"{code}"' in ln), 1)
            f.places.append(cann_source.Place(path="src/runtime/core/inc/common/error_code_meta.h", line=line,
                                              function="ProcessErrorCodeImpl", macro="X", module="RUNTIME",
                                              context=tmpl, code=code, reported_only=False))
    return formats, non_literal


# ---------------------------------------------------------------------------------------------
# Category and role: what the user has to fix (docs/kb-authoring.md). The first rule that fires
# decides. Messages first (their words name the condition), then the error code the call returns
# (mapped to the AscendCL code and the category our curated entry gives it), then the module the
# call blames, then where the code lives.

R = cann_entries.Rule
NULLISH = r"cannot be a NULL pointer|can ?not be null|\bis (a )?null\b|is nullptr|\bnullptr\b|null pointer|\bptr is null"
DEVICE_ID = r"(device ?id|dev_?id|devid|deviceid|drvdevid|user ?dev\w*|logic\w* ?(dev\w*|device) ?id|phy\w* ?(dev\w*|device) ?id|chip ?id)"

RUNTIME_RULES = [
    # A missing context is what follows a failed device open (curated device.context-null).
    R("no-context", "other", r"\bctx is null|context (pointer )?(is )?null|current context (is )?null|no current context", role="symptom"),
    # Internal consistency checks: nothing for the user to fix.
    R("null-check", "other", NULLISH),
    R("wrong-context", "other", r"does not belong to the current context|not in (the )?current context"),
    # Visible devices and device ids: the user's device selection (curated device.visible-devices-invalid, 107001).
    R("visible-devices", "rank_config", r"ASCEND_RT_VISIBLE_DEVICES|visible dev|visibleDevice"),
    R("device-id", "rank_config", r"(invalid|illegal|wrong|out of range|exceed\w*|not (in|within) (the )?range)\W+(\w+\W+){0,3}" + DEVICE_ID
      + r"|" + DEVICE_ID + r"\W+(\w+\W+){0,3}?(is )?(invalid\w*|illegal|out of range|exceed\w*|not (in|within))|" + DEVICE_ID + r"\W+X is err\b"
      + r"|parameter (devId|deviceId|device_id|logicDeviceId|userDevId|drvDevId|phyId) is invalid"),
    # Collective communication seen by the runtime: notify waits, HCCL tasks, links, RoCE, UB.
    R("notify-wait-timeout", "communication", r"notify wait time ?out|stuck notify|wait (remote|peer)", symptom_of=["any"]),
    R("hccl", "communication", r"\bhccl\b|\bhccs\b|\broce\b|\brdma\b|network link|link (error|down)|remote (device|rank|mem)|\bccu (task|launch)\w*.{0,40}(time ?out|exception|error)|ub mem error|\bcqe\b.{0,20}err"),
    R("wait-timeout-on-device", "communication", r"(event|notify|\b)wait timeout occurred", role="symptom"),
    # The device's error reports (device_error_proc*.cc): a plain SDMA fault is the hardware DMA
    # (curated 507013), the rest are task exceptions on the device's cores (507015, 507049 ...).
    R("device-sdma-error", "driver_firmware_env", r"there is a sdma error"),
    R("device-error-report", "aicore_exception", r"(the )?error from device|there is an? (\w+ )*error|exception occurred during|an exception occurred"),
    # Device-side kernel failures: AI Core / Vector / AI CPU / FFTS+ exceptions, traps, timeouts.
    R("kernel-exception", "aicore_exception",
      r"(ai ?core|aiv\w*|\baic\b|vector ?core|ai ?cpu|aicpu\w*|fftsplus|ffts\+?|kernel|\bcore\b|\bmte\b|\bdsa\b|dvpp|sqe|fusion kernel|task)\W+(\w+\W+){0,5}?(exception|trap|time ?out|timed out|happen error|execute failed|execution failed|run failed|error (occurred|info)\b)"
      r"|there is an? (\w+ )*error|exception occurred|task (exception|fail callback)|(task|kernel|core|aicpu) exception info|core dump|error from device|error of X|mte error|smmu fault|page fault|issmmufault",
      unless=r"register|callback func|set \w* ?timeout|get \w* ?timeout|invalid|convert|config|flag"),
    # Synchronisation timeouts are what other failures look like from the host (curated 507046/507047).
    R("sync-timeout", "communication", r"(synchroni[sz]\w*|\bsync\b|\bwait\w*)\W+(\w+\W+){0,6}?(time ?out|timed out)|time ?out\W+(\w+\W+){0,3}(synchroni|sync|wait)", role="symptom",
      unless=r"invalid|\bset\b.{0,30}time ?out|get \w* ?timeout|convert|config|register"),
    R("device-abort", "other", r"task abort|device abort|\bforce stop\b|context is (failure )?abort|stream (is )?(in )?(stream )?abort|abort (app|query|device)|(resume|kill|restore|recover)\w* .{0,40}(time ?out|fail)", role="symptom"),
    # Numbers that went bad on the device.
    R("float-overflow", "compute_overflow_nan", r"(float(ing)?[ -]?(point)?|aicore|vector|aicpu|sdma) overflow(?! ?(mode|addr|switch|detection|status interface))|\b(nan|inf)\b values?|overflow (was |is )?(detected|occurred|happened)(?! when set)"),
    # Device memory: allocations that failed, the driver's out-of-memory, OOM reports.
    R("out-of-memory", "memory", r"out of memory|\boom\b|insufficient (device |host )?memory|not enough memory|no (enough|available|free) memory|memory (is )?(exhausted|insufficient|not enough|usage exceeds)|ran out of memory"),
    # Parameter checks inside the stack: the user rarely caused them (kb-messages.md).
    R("invalid-value", "other", r"\binvalid\b|is not valid|illegal|must be|should be|out of range|not in range|check \w* ?(param|parameter)s?\b|mismatch(ed)? (param|size|length)"),
    R("capture-stream", "resource", r"capture stream\W+(\w+\W+){0,2}fail"),
    R("memory-alloc", "memory", r"(\bmalloc\w*|\balloc\w*|\ballocat\w*|\bapply\w*|\brequest\w*|\bnew\b)\W+(\w+\W+){0,4}?(dev\w* |host |huge ?page |managed |physical |virtual )?(mem\w*|buffer|buf|space|page)\b(?! ?(type|attr|info|copy|cpy|set))"
      r"|(mem\w*|buffer|buf)\W+(\w+\W+){0,2}?(alloc\w*|malloc\w*)\W+(\w+\W+){0,2}?fail|hal ?mem ?alloc|memalloc\w*|devmemalloc|\bnew\b.{0,40}\bfail|\bfail\w* to new\b|malloc\w* fail|alloc failed",
      unless=r"memcpy|memset|memory copy|\bfree\b|release"),
    # Streams, events, notifies, queues, ids: a runtime or driver resource ran out.
    R("resource", "resource",
      r"(no|not enough|insufficient|exhausted|run out of|out of)\s+(\w+\s+)?(stream|event|notify|sq|cq|model|label|task|jetty|id|resource|core)s?\b"
      r"|\b(alloc\w*|allocat\w*|apply\w*|creat\w*|new)\b\W+(\w+\W+){0,3}?(stream|event|notify|\bsq\b|\bcq\b|sqcq|sq ?cq|model|label|cdq|jetty|task ?group|\bids?\b|resource|cnt ?notify|queue)\w*\W+(\w+\W+){0,4}?fail"
      r"|fail\w* to (alloc\w*|allocat\w*|apply\w*|creat\w*|new|realloc\w*) (\w+ ){0,3}?(stream|event|notify|sq|cq|label|model|task|jetty|id|cnt ?notify)\b"
      r"|(stream|event|notify|\bsq\b|\bcq\b|label|model|task)\w* ?(id )?(alloc\w*|apply\w*|creat\w*)\W+(\w+\W+){0,2}?fail|resource alloc fail|too many (\w+ ){0,2}(stream|event|notify|task|model|label|process|acl graph|asynchronous|cntnotify|object)|(stream|event|notify|task|model|label|process|\bsq\b|\bcq\b|\bids?\b)s?\b.{0,60}(exceed\w*|reach\w*) (the )?(max\w*|limit|upper)|over ?limit|(stream|\bsq\b|\bcq\b|task|queue) (\w+ )?(is )?full\b|public buffer is full",
      unless=r"length|path|name|string|size of|separator|placeholder|\blen\b|\bfound\b|\bexist|registered|trace"),
    # The driver and the device: driver calls that failed, device faults, the device daemon.
    R("driver-version", "driver_firmware_env", r"driver version|firmware version|cann and hdk|hardwareversion|driver.{0,40}not support|upgrade the driver"),
    R("driver-lib", "driver_firmware_env", r"(load|open)\w* .{0,20}driver (so|lib)|libascend_hal|ascend_hal"),
    R("device-lost", "driver_firmware_env", r"heartbeat|device\W+(X\W+)?(is )?(lost|down|abnormal|hang|not ready|fault\w*)|is faulty|\becc\b|\buce\b|\bras\b|\bhbm\b|pcie|bus (error|down)|poison|hardware (local )?error|power (up|down)"),
    R("driver-call", "driver_firmware_env", r"drv ?api|driver api|\bhal[A-Z]\w*|\bdrv\w*\(|drvRetCode|drv_?ret|drvRet\b|driver (error|fail|return)|\bdrv\b.{0,30}fail|call driver|\bhdc\b|tsd ?(open|client)|tsdaemon|aicpu-?sd|\bts ?(fw|firmware)|device setup|open device|device open|deviceopen|get (device|chip|dev) ?(count|cnt|num|number)|(device|chip) (count|cnt|num) .{0,10}fail"),
    R("permission", "permission_device", r"permission|(?<!only )not permitted(?! when)|no privilege|device (is )?(busy|occupied)|in use by|already (opened|used|occupied) by|resource busy|\bEPERM\b|\bEACCES\b"),
    # Versions, packages, kernels and libraries that are missing or do not match.
    R("soc-version", "install_version_mismatch", r"soc ?version|socversion|soc_version|platform info|platform config|\bini\b"),
    R("install", "install_version_mismatch", r"version (\w+ )?(mismatch|not match|is not supported|incompatible|too (old|low))|(not |in)compatible|does not match the (driver|cann|package)|dlopen|dlsym|load\w* (so|lib\w*|library|plugin)|\.so\b|cannot open shared|undefined symbol|symbol (\w+ )?(not found|lost)|find symbol|not registered|symbol cannot be found|extension package|kernel (is )?not found|(bin|binary|kernel) (file )?not (found|exist)|\bopp\b|package (is )?(not installed|not found|missing)|not installed|ascend_opp_path|ascend_home"),
    # An operator, type or feature this device or release does not support.
    R("not-supported", "compile_op_unsupported", r"not support|unsupport|does not support|is not supported"),
    R("shape", "compile_shape", r"\bshape\b"),
    # The code around the call: the error code it returns, then the module it blames.
    R("returned-code", None, r"", on="returned-code"),
    R("blames-driver", "driver_firmware_env", r"ERR_MODULE_DRV", on="code"),
    R("blames-hccl", "communication", r"ERR_MODULE_HCCL", on="code"),
    R("blames-aicpu", "aicore_exception", r"ERR_MODULE_AICPU(_TIMEOUT)?\b", on="code"),
    # Where the code lives.
    R("tsd", "driver_firmware_env", r"^src/tsd/", on="path"),
    R("driver-adapter", "driver_firmware_env", r"^src/runtime/driver/", on="path"),
    R("platform", "install_version_mismatch", r"^src/platform/", on="path"),
]

# "X failed, retCode=..." only passes a callee's failure on.
WRAPPER = (r"\b(fail\w*|error|err)\b\W.{0,80}\b(ret|retcode|ret_code|result|errcode|error ?code|drvretcode|drv_ret|rtret|status|rc|errno|err|ge result|runtime result)\b\s*(is\s*)?[=:\[(]"
           r"|\bcall(ing|ed)?\b.{0,60}\bfail|\bexecut\w* fail|\bfail\w*\W*$|\bret(code)?\s*[=:]\s*X")
WRAPPER_UNLESS = (r"happen error|task run failed|task exception|time ?out|timed out|out of memory|not support|unsupport|invalid|exceed|too many|no (enough|available)|insufficient|"
                  r"permission|lost|overflow|exception|\bfull\b|mismatch|not match|not found|not exist|illegal|busy|occupied|null|"
                  r"\balloc|malloc|heartbeat|abort|must|should|out of range|error from device|there is an? ")


def rt_code_categories(files):
    """RT_ERROR_x -> category of the AscendCL code it maps to (errcode_manage.cc + rt_error_codes.h
    + the curated kb/acl_runtime.yaml), so a call that returns RT_ERROR_DRV_OUT_MEMORY is `memory`."""
    acl_codes = {}
    for path, text in files.items():
        for m in re.finditer(r"#define\s+(ACL_ERROR_\w+)\s+(\d+)|\b(ACL_ERROR_\w+)\s*=\s*(\d+)\s*;", text):
            acl_codes.setdefault(m.group(1) or m.group(3), m.group(2) or m.group(4))
    mapping = {}
    text = files.get("src/runtime/core/src/common/errcode_manage.cc", "")
    for m in re.finditer(r"rtErrMap_\[(RT_ERROR_\w+)\]\s*=\s*\{\s*(\w+)", text):
        mapping[m.group(1)] = m.group(2)
    curated = {str(e.get("code")): (e.get("category"), e.get("role"))
               for e in lib.load_yaml(os.path.join(ROOT, "kb/acl_runtime.yaml"))["entries"]
               if e.get("code") and e.get("category")}
    out = {}
    for rt, acl in mapping.items():
        got = curated.get(acl_codes.get(acl, ""))
        if got:
            out[rt] = got
    for acl, code in acl_codes.items():
        if curated.get(code):
            out[acl] = curated[code]
    return out


CODE_FILES = {"src/runtime/core/src/common/errcode_manage.cc", "include/external/acl/error_codes/rt_error_codes.h",
              "include/external/acl/acl_base_rt.h", "include/external/acl/error_codes/ge_error_codes.h"}


def runtime_rules(files):
    cats = rt_code_categories(files)

    def code_category(place):
        # The code the call returns or assigns: an argument of the log macro that is not
        # compared (COND_RETURN_ERROR(cond, RT_ERROR_X, ...)), or `return RT_ERROR_X` /
        # `error = RT_ERROR_X` just after the call. A code the condition says the value is not
        # (`error != RT_ERROR_DRV_OUT_MEMORY`) is not it; one it says the value is
        # (`error == RT_ERROR_STREAM_SYNC_TIMEOUT`) is, but only under the COND_* macros, which
        # log when their condition holds: IDE_CTRL_VALUE_FAILED logs when it does not.
        args = " , ".join(place.args)
        args = re.sub(r"(?:\w+\s*)?!=\s*\(?\s*\w+", " ", args)
        equal_is_returned = (place.macro or "").startswith("COND_")
        args = re.sub(r"\w+\s*==" if equal_is_returned else r"(?:\w+\s*)?==\s*\(?\s*\w+", " ", args)
        after = " ".join(re.findall(r"(?:\breturn\b\s*\(?|[^=!<>]=(?!=))\s*((?:RT|ACL)_ERROR_\w+)", place.after or ""))
        for tok in re.findall(r"\b((?:RT|ACL)_ERROR_\w+)\b", args + " " + after):
            if tok in cats:
                cat, role = cats[tok]
                # A symptom or wrapper code (sync timeouts, 500xxx) makes the message one too.
                return cat, "returned-code:" + tok, role if role in ("symptom", "wrapper") else None
        return None

    return cann_entries.Rules(RUNTIME_RULES, WRAPPER, WRAPPER_UNLESS, code_category=code_category)


LABELS = {"RUNTIME": ("Runtime", "Runtime"), "ASCENDCL": ("AscendCL", "AscendCL"), "TDT": ("TSD", "TSD"),
          "PROFILING": ("Profiling", "Profiling"), "IDEDD": ("ADX", "ADX"), "ATRACE": ("Trace", "Trace"),
          "ADETECT": ("Trace", "Trace"), "CCECPU": ("AI CPU scheduler", "AI CPU 调度"), "AICPU": ("AI CPU", "AI CPU"),
          "FE": ("Platform", "Platform"), "GE": ("Runtime", "Runtime")}


def label(module):
    return LABELS.get(module or "RUNTIME", (module.title(), module.title()))


def sample_line(place, module, message):
    """The line as dlog prints it: `[file:line]tid Func:message` after the plog header."""
    func = place.function or "Func"
    return lib.plog_line(module or "RUNTIME", f"{func}:{message}", file=os.path.basename(place.path), line=place.line)


def extract(repo, overrides):
    """What main() writes, read from the snapshot at `repo` (its HEAD): (commit, formats,
    non_literal, entries, skipped, decisions), `overrides` the path of the hand-written texts."""
    commit = lib.head_commit(repo)
    formats, non_literal = collect(repo)
    files = cann_source.read_tree(repo, lambda p: p in CODE_FILES)
    rules = runtime_rules(files)
    entries, skipped, decisions = cann_entries.build_entries(formats, commit, REPO_NAME, "src-runtime", rules,
                                                             sample_line, label, overrides)
    return commit, formats, non_literal, entries, skipped, decisions


def write_file(out, commit, formats_found, non_literal, skipped, entries):
    """Writes kb/messages/runtime.yaml (or `out`) from extract()'s entries."""
    header = {
        "family": "src-runtime",
        "description": "ERROR-level messages of the CANN runtime and AscendCL (hicann/runtime): RT_LOG / "
                       "RT_LOG_*_MSG / COND_RETURN_ERROR ..., ACL_LOG_*ERROR, the error-code table, TDT, "
                       "profiling, dump and the AI CPU scheduler. Generated by scripts/catalog/extract_runtime.py; "
                       f"{non_literal} calls with a non-literal format are not counted.",
        "source": {"component": "CANN runtime", "repo": REPO_NAME, "commit": commit,
                   "formats_found": formats_found, "skipped": skipped},
        "defaults": {"origin": "source", "layer": "runtime", "level": "error", "category": "other", "role": "cause"},
    }
    lib.write_messages_file(out, header, entries)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", default=DEFAULT_REPO)
    ap.add_argument("--out", default=os.path.join(ROOT, "kb/messages/runtime.yaml"))
    ap.add_argument("--overrides", default=os.path.join(ROOT, "scripts/catalog/overrides/runtime.yaml"))
    ap.add_argument("--dump-tsv", help="also write every format with its module, place and category (for review)")
    a = ap.parse_args()
    commit, formats, non_literal, entries, skipped, decisions = extract(a.repo, a.overrides)
    write_file(a.out, commit, len(formats), non_literal, skipped, entries)
    if a.dump_tsv:
        cann_entries.dump_tsv(a.dump_tsv, formats, entries, decisions)
    print(f"{a.out}: {len(entries)} entries from {len(formats)} formats; skipped {skipped}; "
          f"non-literal calls {non_literal}", file=sys.stderr)


if __name__ == "__main__":
    main()
