#!/usr/bin/env python3
"""Triton-Ascend's ERROR-level messages -> kb/messages/triton_ascend.yaml.

triton-lang/triton-ascend: the Ascend backend (third_party/ascend: the Python driver and
compiler, the CANN language extensions, the MLIR passes that lower Triton to the Ascend
compiler) and the Triton front end it ships (python/triton: language semantics, code
generator, runtime, autotuner). Python: raises, asserts with a message, logger errors.
C++: MLIR diagnostics (emitError / emitOpError, printed 'file:line:col: error: ...'),
llvm::report_fatal_error ('LLVM ERROR: ...') and llvm_unreachable messages. The Ascend
compiler itself (bishengir, the AscendNPU-IR submodule) is read by extract_ascendnpu_ir.py.

usage: extract_triton_ascend.py [MIRROR]   (default /work/.mirror/triton-lang+triton-ascend/repo)
"""
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Rule
from fw_cpp import diagnostic_records
from fw_python import is_test_path, python_records

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/triton-lang+triton-ascend/repo"
PY_SCOPE = ("third_party/ascend/backend/", "third_party/ascend/language/", "python/triton/compiler/",
            "python/triton/runtime/", "python/triton/language/", "python/triton/backends/")
CPP_SCOPE = ("third_party/ascend/lib/", "third_party/ascend/backend/", "third_party/ascend/ascend_ir.cc",
             "third_party/ascend/triton_ascend.cc")


def py_log_line(message, path, line, level="ERROR"):
    """Python logging's default format, as Triton's loggers print."""
    return f"{level}:triton:{message}"


def diag_line(message, path, line, call):
    if call == "report_fatal_error":
        return f"LLVM ERROR: {message}"
    if call == "llvm_unreachable":
        return f"{message}"
    return f"/home/user/kernel.py:12:8: error: {message}"


RULES = [
    # The CANN toolkit / bisheng compiler the backend drives: missing or wrong install.
    Rule("install_version_mismatch",
         words=r"bisheng|ascend_home|ascend_toolkit|cann\b|npu_compiler|\bccec\b|\bhivmc\b|toolkit|set_env|not found in path"
         r"|compiler .{0,30}not found|cannot find .{0,30}(?:compiler|bishengir)|find c\+\+ compiler|mlir_root|llvm_root"
         r"|could not find .{0,30}tool|available in path",
         why="the CANN toolkit or the Ascend compiler the backend calls is missing or wrong"),
    # The device: driver / runtime calls of the launcher (npu_utils.cpp, driver.py).
    Rule("driver_firmware_env", words=r"\bacl\w*|\brt\w*(?:malloc|launch|kernel|memcpy)|launch kernel|device count|set device",
         path=r"backend/(?:driver|npu_utils)", why="a runtime / driver call of the kernel launcher failed"),
    # On-chip buffers (UB / L1) too small for the tile: what the user fixes is the block size.
    Rule("memory", words=r"\bub\b|unified buffer|out of resource|exceed.{0,30}(?:buffer|memory)|buffer .{0,20}overflow|shared memory",
         why="the kernel's tiles do not fit the on-chip buffer"),
    # What the language / the Ascend lowering cannot do: unsupported ops, types, modes.
    Rule("compile_op_unsupported", words=r"unsupported|not supported|not support|cannot be resolved|unknown custom operation|unhandled",
         why="Triton-Ascend cannot lower this operation / type"),
]

MODULE_RULES = [
    # The language semantics' checks on block shapes and broadcasting.
    Rule("compile_shape", path=r"language/", words=r"shape|broadcast|rank|dimension|\bdims?\b|block|numel|size|power of 2|constexpr",
         why="the kernel's block shapes or sizes do not fit the operation"),
    Rule("compile_op_unsupported", path=r"language/|compiler/", words=r"type|dtype|fp\d|int\d|bf16|float|pointer",
         why="the kernel uses a data type the operation does not take"),
]


def main():
    commit = L.head_commit(MIRROR)
    files = L.list_files(MIRROR, commit, suffixes=(".py", ".cpp", ".cc"))
    py = [p for p in files if p.endswith(".py") and p.startswith(PY_SCOPE) and not is_test_path(p)]
    cpp = [p for p in files if p.endswith((".cpp", ".cc")) and p.startswith(CPP_SCOPE)]
    records = python_records(MIRROR, commit, py, py_log_line)
    records += diagnostic_records(MIRROR, commit, cpp, ["emitError", "emitOpError", "report_fatal_error", "llvm_unreachable"],
                                  diag_line)
    comp = F.Component(
        family="src-triton-ascend", name="Triton-Ascend", label="Triton-Ascend", repo_name="triton-lang/triton-ascend",
        mirror=MIRROR, commit=commit, out="kb/messages/triton_ascend.yaml",
        description="ERROR-level messages of Triton-Ascend (triton-lang/triton-ascend): the Ascend backend (driver, compiler, "
                    "CANN language extensions, MLIR lowering passes) and the Triton front end it ships. Python raises, asserts "
                    "and logger errors; C++ MLIR diagnostics (emitError, printed 'file:line:col: error: ...'), "
                    "report_fatal_error and llvm_unreachable messages (non-literal operands as %s).",
        layer="compiler", default_category="compile_op_unsupported", overrides="scripts/catalog/overrides/triton_ascend.yaml")
    # No ranks or communication inside a kernel compiler ("broadcast" is a tensor operation here).
    weak = [r for r in F.GENERAL_WEAK if r.category not in ("communication", "rank_config")]
    F.build(comp, records, RULES + F.GENERAL_STRONG + MODULE_RULES + weak)


if __name__ == "__main__":
    main()
