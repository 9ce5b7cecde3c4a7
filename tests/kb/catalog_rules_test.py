#!/usr/bin/env python3
"""The catalogue rules that refuse a format after files were generated (scripts/catalog/
catalog_rules.py: is_python_own_message, is_bare_field), and that no generated entry in
kb/messages/ is one they refuse: an extractor or a file that missed a rule fails here. With the
built binary, also that a curated entry's claim on a sample (curated_claims) is that sample's
own, whatever samples it is diagnosed with.
Usage: catalog_rules_test.py REPO_ROOT [NPU_DOCTOR]
"""
import glob
import os
import sys

ROOT = sys.argv[1]
DOCTOR = sys.argv[2] if len(sys.argv) > 2 else None
sys.path.insert(0, os.path.join(ROOT, "scripts", "catalog"))
import catalog_lib as L  # noqa: E402
import catalog_rules as R  # noqa: E402

failures = []


def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got}, want {want}")


# One field of a C/C++/Go report: refused.
for fmt in ["error_code=%hu.", "node: %s", "graph_id:%u", "IPC:                %.2f", "retCode: %d",
            "kernel_name=%s", "size: [%lld]"]:
    expect(f"is_bare_field({fmt!r})", R.is_bare_field(fmt, "printf"), True)
    expect(f"too_generic({fmt!r})", R.too_generic(fmt, "printf"), True)
# Messages, two fields or more, and Python messages that are one key naming the condition: kept.
for fmt, style in [("offset: %lld, len: %lld", "printf"), ("call mcu_get_lock failed. ret is %d.", "printf"),
                   ("Init failed, ret=%d", "printf"), ("grid_rank_mismatch:{}", "python"),
                   ("MLIR转换失败: {}", "python"), ("rank=%d, world=%d", "printf")]:
    expect(f"is_bare_field({fmt!r}, {style})", R.is_bare_field(fmt, style), False)
# Python's own exception texts: refused.
expect("is_python_own_message", R.is_python_own_message("{} object has no attribute {}", "python"), True)
expect("is_python_own_message", R.is_python_own_message("Unsupported dtype {}", "python"), False)


def check_claims_per_sample():
    """Real ops samples (kb/messages/ops_nn.yaml, ops_opbase.yaml) whose claims interfered in
    one claims run: op.tiling-failed's context rule reads the first occurrence's own text and
    neighbours and re-reads the whole finding, every sample of it, as
    op.configuration-not-supported (no message pattern of its own), so the "DoTiling Failed"
    sample lost its claim (category `other` instead of compile_shape) when it came after a
    tiling check that names what it supports (a neighbour in one file) or after a tiling failure
    that says "not supported" itself (another input of the same run: the extractor's real case).
    Alone, op.tiling-failed claims it."""
    head = "[ERROR] OP(12345,python):2025-03-02-10:55:12.313.101 "
    check = (head + "[clipped_swiglu_tiling.cpp:202][OPS_BASE][CheckAndGetXAndAttrs][12346] OpName:[Foo:foo_1] "
             "x dtype only support float, half or bfloat16, please check.")
    broadcast = (head + "[broadcast_tiling.h:148][OPS_BASE][EnsureNotScalar][12346] OpName:[Foo:foo_1] "
                 "Do broadcast tiling failed, VecBrc noncontigunous not supported.")
    tiling = (head + "[prelu_grad_reduce_tiling_arch35.cpp:107][OPS_BASE][Tiling4PreluGradReduce][12346] "
              "OpName:[Foo:foo_1] DoTiling Failed for PreluGradReduce")
    kb = os.path.join(ROOT, "kb")
    alone = {name: R.curated_claims([text], DOCTOR, kb).get(0)
             for name, text in [("check", check), ("broadcast", broadcast), ("tiling", tiling)]}
    expect("claim of the DoTiling sample alone", alone["tiling"] and alone["tiling"][:2],
           ("op.tiling-failed", "compile_shape"))
    for name, text in [("check", check), ("broadcast", broadcast)]:
        together = R.curated_claims([text, tiling], DOCTOR, kb)
        expect(f"claim of the DoTiling sample after the {name} sample", together.get(1), alone["tiling"])
        expect(f"claim of the {name} sample before the DoTiling sample", together.get(0), alone[name])


if DOCTOR:
    check_claims_per_sample()
else:
    print("note: no NPU_DOCTOR given: the curated-claims check is not run")

files = sorted(glob.glob(os.path.join(ROOT, "kb", "messages", "*.yaml")))
expect("generated files found", len(files) > 10, True)
for path in files:
    entries = (L.load_yaml(path) or {}).get("entries") or []
    for e in entries:
        fmt, style = e.get("format"), e.get("format_style", "printf")
        if isinstance(fmt, str) and R.refused_for_every_component(fmt, style):
            failures.append(f"{os.path.relpath(path, ROOT)}: {e['id']} ({fmt!r}) is refused by the rules: "
                            "run scripts/catalog/prune_refused_messages.py or the file's extractor")

for f in failures:
    print("FAIL:", f)
print("ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
