#!/usr/bin/env python3
"""The catalogue rules that refuse a format after files were generated (scripts/catalog/
catalog_rules.py: is_python_own_message, is_bare_field), and that no generated entry in
kb/messages/ is one they refuse: an extractor or a file that missed a rule fails here.
Usage: catalog_rules_test.py REPO_ROOT
"""
import glob
import os
import sys

ROOT = sys.argv[1]
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
