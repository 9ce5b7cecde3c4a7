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
    """Two real ops-nn samples (kb/messages/ops_nn.yaml): a tiling check that names what it
    supports, then "DoTiling Failed". Diagnosed in one file, op.tiling-failed's first line has
    the check as a neighbour, its context rule re-reads the whole finding as
    op.configuration-not-supported (no message pattern of its own), and the DoTiling sample lost
    its claim (category `other` instead of compile_shape). Alone, op.tiling-failed claims it."""
    check = ("[ERROR] OP(12345,python):2025-03-02-10:55:12.313.101 [clipped_swiglu_tiling.cpp:202][OPS_BASE]"
             "[CheckAndGetXAndAttrs][12346] OpName:[Foo:foo_1] x dtype only support float, half or bfloat16, "
             "please check.")
    tiling = ("[ERROR] OP(12345,python):2025-03-02-10:55:12.313.101 [prelu_grad_reduce_tiling_arch35.cpp:107]"
              "[OPS_BASE][Tiling4PreluGradReduce][12346] OpName:[Foo:foo_1] DoTiling Failed for PreluGradReduce")
    kb = os.path.join(ROOT, "kb")
    alone = R.curated_claims([tiling], DOCTOR, kb).get(0)
    expect("claim of the DoTiling sample alone", alone and alone[:2], ("op.tiling-failed", "compile_shape"))
    together = R.curated_claims([check, tiling], DOCTOR, kb)
    expect("claim of the DoTiling sample after the tiling check", together.get(1), alone)
    expect("claim of the tiling check alone vs with the DoTiling sample",
           together.get(0), R.curated_claims([check], DOCTOR, kb).get(0))


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
