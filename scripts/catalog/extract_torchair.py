#!/usr/bin/env python3
"""torchair's ERROR-level messages -> kb/messages/torchair.yaml.

Ascend/torchair (torch.compile's NPU backend: FX graphs to GE graphs or aclgraph):
- Python (python/torchair/): raises, asserts with a message, logger.error; the GE converters'
  "torch.ops.aten.X ge_converter is not implemented!" family is most of it. torchair's logger
  prints '[ERROR] TORCHAIR(pid,python):time [file:line]tid message'.
- C++ (torchair/): TNG_LOG(ERROR) << ... (the same line format), and the statuses it returns
  to Python (tng::Status::Error(fmt, ...), TNG_ASSERT(cond, fmt, ...), TNG_RAISE_ASSERT(cond,
  fmt, ...)), raised in Python as RuntimeError (TngRuntimeError).

usage: extract_torchair.py [MIRROR]   (default /work/.mirror/Ascend+torchair/repo)
"""
import os
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Record, Rule, context_lines
from fw_cpp import diagnostic_records
from fw_python import is_test_path, python_records

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/Ascend+torchair/repo"


def tng_line(message, path, line, level="ERROR"):
    return L.plog_line("TORCHAIR", message, file=os.path.basename(path), line=line, level=level)


def status_records(commit, paths):
    """Status::Error(fmt, ...), TNG_ASSERT(cond, fmt, ...), TNG_ASSERT_NOTNULL(v, fmt, ...),
    TNG_RAISE_ASSERT(cond, fmt, ...): messages returned to Python and raised there."""
    out = []
    calls = {"Error": 0, "TNG_ASSERT": 1, "TNG_ASSERT_NOTNULL": 1, "TNG_RAISE_ASSERT": 1}
    for path in paths:
        text = L.read_file(MIRROR, path, commit)
        lines = text.splitlines()
        for name, args, line in L.find_c_calls(text, list(calls)):
            if name == "Error" and "Status::Error" not in lines[line - 1] and "Status::Error" not in " ".join(lines[max(0, line - 2):line]):
                continue
            idx = calls[name]
            fmt = L.c_format_of(args[idx]) if len(args) > idx else None
            if fmt is None or fmt.strip() in ("%s", ""):
                continue
            fmt = fmt.strip()
            # TNG_RAISE_IF_ERROR / TNG_RAISE_ASSERT throw TngRuntimeError, a RuntimeError in Python.
            out.append(Record(path, line, fmt, "printf", "raise", "RuntimeError", "", context_lines(lines, line),
                              L.exception_line("RuntimeError", L.fill(fmt))))
    return out


RULES = [
    # GE / CANN underneath: the graph engine, its options and the installed packages.
    Rule("install_version_mismatch", words=r"cann version|torch_npu version|torch version|version of|incompatible version|please upgrade|so file|library|dlsym|dlopen",
         why="the torch / torch_npu / CANN versions under torchair do not fit"),
    # The GE converters: an aten/prims operator or one of its variants has no GE lowering.
    Rule("compile_op_unsupported", words=r"ge_converter|not implemented|unsupported|not supported|not support",
         why="torchair cannot convert this operator / variant to the GE graph"),
]

MODULE_RULES = [
    Rule("compile_shape", words=r"shape|\bdims?\b|dimension|rank|size|symbolic|symint|sym_size|dynamic",
         why="the graph's shapes (static or symbolic) do not fit"),
    Rule("compile_op_unsupported", path=r"_ge_concrete_graph|_acl_concrete_graph|ge_converter|concrete_graph|npugraph",
         why="building or running the compiled NPU graph failed"),
]


def main():
    commit = L.head_commit(MIRROR)
    files = L.list_files(MIRROR, commit, suffixes=(".py", ".cpp", ".cc", ".h"))
    py = [p for p in files if p.endswith(".py") and p.startswith("python/torchair/") and not is_test_path(p)]
    cpp = [p for p in files if p.endswith((".cpp", ".cc", ".h")) and p.startswith("torchair/") and "/test" not in p
           and not p.endswith(("logger.h", "checker.h"))]
    records = python_records(MIRROR, commit, py, tng_line)
    records += diagnostic_records(MIRROR, commit, cpp, ["TNG_LOG"], lambda m, p, ln, c: tng_line(m, p, ln),
                                  want=lambda name, args: args and args[0].strip() == "ERROR", level="error")
    records += status_records(commit, cpp)
    comp = F.Component(
        family="src-torchair", name="torchair", label="torchair", repo_name="Ascend/torchair", mirror=MIRROR, commit=commit,
        out="kb/messages/torchair.yaml",
        description="ERROR-level messages of torchair (Ascend/torchair): Python raises, asserts and logger errors "
                    "(python/torchair/), C++ TNG_LOG(ERROR) lines and the error statuses returned to Python "
                    "(Status::Error, TNG_ASSERT, TNG_RAISE_ASSERT; stream operands as %s).",
        layer="compiler", default_category="compile_op_unsupported", overrides="scripts/catalog/overrides/torchair.yaml")
    F.build(comp, records, RULES + F.GENERAL_STRONG + MODULE_RULES + F.GENERAL_WEAK)


if __name__ == "__main__":
    main()
