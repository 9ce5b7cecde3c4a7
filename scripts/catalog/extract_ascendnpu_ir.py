#!/usr/bin/env python3
"""The Ascend kernel compiler's (bishengir, AscendNPU-IR) fatal errors and diagnostics
-> kb/messages/ascendnpu_ir.yaml.

Ascend/AscendNPU-IR is the MLIR compiler (bishengir-compile, bishengir-opt) that Triton-Ascend,
TileLang-Ascend and other DSLs hand their kernels to. When it cannot lower a kernel it stops
with llvm::report_fatal_error, printed 'LLVM ERROR: <message>' (often under triton-ascend's
'[ConvertLinalgRToBinary] encounters error:' banner), or with an MLIR diagnostic
('file:line:col: error: <message>'). Both mean the compiler cannot build this kernel as
written: an unsupported construct, a dynamic shape where a static one is needed, on-chip
buffers that do not fit. Triton-Ascend's own messages are in triton_ascend.yaml.

usage: extract_ascendnpu_ir.py [MIRROR]   (default /work/.mirror/Ascend+AscendNPU-IR/repo)
"""
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Rule
from fw_cpp import diagnostic_records

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/Ascend+AscendNPU-IR/repo"
CPP_SCOPE = ("bishengir/lib/", "bishengir/tools/")


def diag_line(message, path, line, call):
    if call == "report_fatal_error":
        return f"LLVM ERROR: {message}"
    if call == "llvm_unreachable":
        return f"{message}"
    return f"/tmp/kernel.ttadapter.mlir:12:8: error: {message}"


RULES = [
    # The toolkit / runtime pieces the compiler loads.
    Rule("install_version_mismatch", words=r"\bcann\b|toolkit|ascend_home|not found in path|cannot find .{0,30}(?:library|lib\w+\.so)",
         why="the CANN toolkit the compiler needs is missing or wrong"),
    # On-chip buffers (UB / L1 / L0) too small for the kernel's tiles: the user fixes the block size.
    Rule("memory", words=r"\bub\b overflow|\bub\b.{0,20}(?:exceed|not enough|insufficient)|out of (?:ub|memory)|exceed.{0,30}(?:buffer|memory|\bub\b)"
         r"|buffer .{0,20}overflow",
         why="the kernel's tiles do not fit the on-chip buffer"),
]


def main():
    commit = L.head_commit(MIRROR)
    files = L.list_files(MIRROR, commit, suffixes=(".cpp", ".cc"))
    cpp = [p for p in files if p.startswith(CPP_SCOPE) and "/test" not in p and "/unittest" not in p]
    records = diagnostic_records(MIRROR, commit, cpp, ["emitError", "emitOpError", "report_fatal_error", "llvm_unreachable"],
                                 diag_line)
    comp = F.Component(
        family="src-ascendnpu-ir", name="AscendNPU-IR (bishengir)", label="bishengir", repo_name="Ascend/AscendNPU-IR",
        mirror=MIRROR, commit=commit, out="kb/messages/ascendnpu_ir.yaml",
        description="Fatal errors and diagnostics of the Ascend kernel compiler bishengir (Ascend/AscendNPU-IR), which "
                    "Triton-Ascend and other kernel DSLs call: report_fatal_error ('LLVM ERROR: ...'), llvm_unreachable "
                    "and MLIR diagnostics (emitError / emitOpError, 'file:line:col: error: ...'); non-literal operands "
                    "as %s. The compiler cannot build the kernel as written.",
        layer="compiler", default_category="compile_op_unsupported")
    F.build(comp, records, RULES + F.GENERAL_STRONG)


if __name__ == "__main__":
    main()
