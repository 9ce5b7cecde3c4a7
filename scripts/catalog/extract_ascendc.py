#!/usr/bin/env python3
"""AscendC's ERROR-level messages -> kb/messages/ascendc.yaml.

hicann/asc-devkit (read from its mirror mirror-cann/asc-devkit at a commit that hicann/asc-devkit
has): what users see when they build and debug AscendC kernels.
- The kernel APIs' checks (impl/, include/): KERNEL_LOG(KERNEL_ERROR, ...) printed as
  '[ERROR][Core_0][file:line][function][pid] message' (CPU debug / simulator builds) and the
  check macros that build their message from the API name (ASCENDC_REPORT_NOT_SUPPORT:
  '<API> is not supported on current device.', ASCENDC_CHECK_VALUE_RANGE, ASCENDC_CHECK_TPOSITION,
  ASCENDC_REPORT_CHECK_ERROR, ASCENDC_CHECK_TENSOR_PTR_ALIGN), expanded at each call.
- Host side (tiling, platform, context, the op build tools): ASCENDC_HOST_ASSERT, TILING_LOG_ERROR,
  PF_LOGE, CXT_ASCENDC_LOGE, ASCENDLOGE, all dlog_error into the plog as module ASCENDCKERNEL;
  the kernel HCCL API's HCCL_ERROR / ASCENDC_HCCL_API_ASSERT.
- The op compile tools (tools/build, Python): raises, logger errors and
  print_compile_log(..., AscendCLogLevel.LOG_ERROR) lines ('[time] [ERROR] [soc] kernel message').
GE/ATC's own messages are catalogued with GE.

usage: extract_ascendc.py [MIRROR [COMMIT]]
"""
import ast
import os
import re
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Record, Rule, context_lines
from fw_python import is_test_path, python_records

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/mirror-cann+asc-devkit/repo"
COMMIT = sys.argv[2] if len(sys.argv) > 2 else "7405415369e8aa52e89029cf15ec627d7e377330"

# Macro -> (index of the format argument, how the line is printed).
FORMAT_MACROS = {
    "ASCENDC_HOST_ASSERT": (2, "plog"), "TILING_LOG_ERROR": (0, "plog"), "PF_LOGE": (0, "plog"),
    "CXT_ASCENDC_LOGE": (0, "plog"), "ASCENDLOGE": (0, "plog"), "HCCL_ERROR": (0, "hccl"),
    "ASCENDC_HCCL_API_ASSERT": (2, "kernel"),
}
# Check macros whose message is built from literal arguments: macro -> (template, argument
# indexes substituted for its %s in order; None: a runtime value, left as a placeholder).
BUILT_MACROS = {
    "ASCENDC_REPORT_NOT_SUPPORT": ("%s is not supported on current device.", [1]),
    "ASCENDC_CHECK_VALUE_RANGE": ("Failed to check %s value in %s, its valid range is %s ~ %s, current value is %s.",
                                  [3, 4, None, None, None]),
    "ASCENDC_CHECK_TPOSITION": ("Failed to check %s tensor position in %s, supported positions are %s, current position is %s.",
                                [1, 3, 2, None]),
    "ASCENDC_REPORT_CHECK_ERROR": ("Failed to pass %s check.", [0]),
    "ASCENDC_CHECK_TENSOR_PTR_ALIGN": ("Failed to check %s start address alignment in %s, its start address must align with %dB.",
                                       [3, 4, None]),
}
MACRO_FILES = re.compile(r"kernel_log\.h$|host_log\.h$|_log\.h$|hccl_base\.h$")


def kernel_line(message, path, line):
    return f"[ERROR][Core_0][{path.split('/')[-1]}:{line}][Func][1234] {message}"


def plog(module):
    return lambda message, path, line: L.plog_line(module, message, file=os.path.basename(path), line=line)


LINES = {"kernel": kernel_line, "plog": plog("ASCENDCKERNEL"), "hccl": plog("HCCL")}


def literal(arg):
    fmt = L.c_format_of(arg)
    return None if fmt is None else fmt.replace("%", "%%")


def cpp_records(paths):
    out = []
    names = ["KERNEL_LOG", "KERNEL_LOG_INTERNAL", *FORMAT_MACROS, *BUILT_MACROS]
    for path in paths:
        if MACRO_FILES.search(path):
            continue  # the macros' own definitions
        text = L.read_file(MIRROR, path, COMMIT)
        lines = text.splitlines()
        for name, args, line in L.find_c_calls(text, names):
            ctx = context_lines(lines, line)
            if name in ("KERNEL_LOG", "KERNEL_LOG_INTERNAL"):
                if len(args) < 2 or args[0].strip() != "KERNEL_ERROR":
                    continue
                fmt, how = L.c_format_of(args[1]), "kernel"
            elif name in FORMAT_MACROS:
                idx, how = FORMAT_MACROS[name]
                fmt = L.c_format_of(args[idx]) if len(args) > idx else None
            else:
                template, idxs = BUILT_MACROS[name]
                values = [literal(args[i]) if i is not None and i < len(args) else None for i in idxs]
                if all(v is None for v in values):
                    continue
                parts = template.split("%s")
                fmt, how = parts[0], "kernel"
                for v, rest in zip(values + [None] * (len(parts) - 1 - len(values)), parts[1:]):
                    fmt += ("%s" if v is None else v) + rest
            if not fmt:
                continue
            fmt = fmt.strip()
            out.append(Record(path, line, fmt, "printf", "log", name, "error" if how != "kernel" else "error", ctx,
                              LINES[how](L.fill(fmt), path, line)))
    return out


def compile_log_line(message, path, line, level="ERROR"):
    """LogUtil.log_print: '[time] [ERROR] [soc] <kernel> message'."""
    return f"[2025-03-02 10:55:12] [{level}] [ascend910b] add_custom {message}"


def py_print_compile_log(paths):
    """print_compile_log(kernel, message, AscendCLogLevel.LOG_ERROR) calls."""
    out = []
    for path in paths:
        text = L.read_file(MIRROR, path, COMMIT)
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        lines = text.splitlines()
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "print_compile_log" and len(node.args) >= 3):
                continue
            if "LOG_ERROR" not in ast.unparse(node.args[2]):
                continue
            fmt = L._py_format(node.args[1])
            if fmt is None:
                continue
            out.append(Record(path, node.lineno, fmt, "python", "log", "print_compile_log", "error",
                              context_lines(lines, node.lineno), compile_log_line(L.fill(fmt, "python"), path, node.lineno)))
    return out


RULES = [
    # The toolchain: bisheng/ccec compiler, CANN paths, files of the build.
    Rule("install_version_mismatch",
         words=r"bisheng|\bccec\b|compiler .{0,30}not (?:found|exist)|ascend_home|ascend_toolkit|cann (?:path|package|version)"
         r"|set_env|toolkit|not installed|no such file|file .{0,30}not (?:found|exist)|cannot find|can not find",
         why="the CANN toolchain or a file the build needs is missing"),
    Rule("communication", path=r"/hccl/", why="the kernel HCCL API (collectives issued from a kernel) failed"),
    Rule("compile_op_unsupported", words=r"not supported|unsupported|not support|only support|current device|soc|npu_arch|dtype|data ?type"
         r"|\btype\b|position|tposition|format",
         why="the API, data type, position or SoC is not supported"),
    # On-chip buffers.
    Rule("memory", words=r"\bub\b|unified buffer|\bl1\b.{0,30}(?:size|overflow|exceed)|buffer .{0,20}(?:overflow|exceed|not enough)"
         r"|exceed.{0,30}(?:buffer|memory)|out of memory|memory .{0,20}not enough|malloc|alloc\w* .{0,20}fail",
         why="the kernel's buffers do not fit the on-chip memory"),
    Rule("compile_shape", words=r"shape|\bdims?\b|dimension|\bsize\b|getsize|len(?:gth)?\b|range|align|count|stride|block|repeat"
         r"|\bmask\b|must be (?:equal|greater|less|a multiple)|divisible|multiple of|tiling"
         r"|should (?:be )?(?:larger|greater|less|smaller|no less|no larger|not larger|equal)|must be (?:larger|smaller)",
         why="a size, shape, range or alignment check of the API failed"),
]


def main():
    files = L.list_files(MIRROR, COMMIT, suffixes=(".h", ".hpp", ".cpp", ".cc", ".py"))
    cpp = [p for p in files if p.startswith(("impl/", "include/", "tools/")) and p.endswith((".h", ".hpp", ".cpp", ".cc"))
           and "/test" not in p and "/stub" not in p]
    py = [p for p in files if p.startswith("tools/") and p.endswith(".py") and not is_test_path(p)]
    records = cpp_records(cpp)
    records += python_records(MIRROR, COMMIT, py, lambda m, p, ln, lv="ERROR": compile_log_line(m, p, ln, lv))
    records += py_print_compile_log(py)
    comp = F.Component(
        family="src-ascendc", name="AscendC", label="AscendC", repo_name="hicann/asc-devkit", mirror=MIRROR, commit=COMMIT,
        out="kb/messages/ascendc.yaml",
        description="ERROR-level messages of AscendC (hicann/asc-devkit): the kernel APIs' checks (KERNEL_LOG at KERNEL_ERROR and "
                    "the check macros, expanded with their API names: '<API> is not supported on current device.' ...), host-side "
                    "tiling/platform/context errors (dlog_error, module ASCENDCKERNEL), the kernel HCCL API, and the op compile "
                    "tools (Python raises, logger errors, print_compile_log at LOG_ERROR). String literals passed to the check "
                    "macros are kept literally (a % in them is written %%).",
        layer="compiler", default_category="compile_op_unsupported", overrides="scripts/catalog/overrides/ascendc.yaml")
    F.build(comp, records, RULES + F.GENERAL_STRONG)


if __name__ == "__main__":
    main()
