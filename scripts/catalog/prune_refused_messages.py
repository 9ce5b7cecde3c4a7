#!/usr/bin/env python3
"""Applies the catalogue rules added after files were generated to the generated
kb/messages/*.yaml without extracting them again (the sources' snapshots may be gone or newer):
an entry whose format is only one of Python's own exception texts or only one field of a
C/C++/Go report, `key=%d` (catalog_rules.refused_for_every_component), is removed and counted under its file's `skipped: too_generic`;
the next extraction of that file leaves it out by itself (fw_common.build, cann_entries,
ge_ops_common.build_entries).
(Only those parts of too_generic: some generators keep entries the rest of it would refuse,
e.g. code entries whose format is not what recognises them.)

Usage: prune_refused_messages.py [FILE...]   (default: every kb/messages/*.yaml); prints what it removed.
"""
import glob
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog_rules as R  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENTRY_START = re.compile(r"^(?=  - id: )", re.M)  # each entry's block of the generated file
ENTRY_ID = re.compile(r"  - id: (\S+)")


def prune(path):
    text = open(path, encoding="utf-8").read()
    refused = {e["id"]: e["format"] for e in yaml.safe_load(text).get("entries") or []
               if isinstance(e.get("format"), str) and R.refused_for_every_component(e["format"], e.get("format_style", "printf"))}
    if not refused:
        return 0
    blocks = ENTRY_START.split(text)  # the header, then one block per entry
    kept = [b for b in blocks if not (m := ENTRY_ID.match(b)) or m[1] not in refused]
    for ident, fmt in refused.items():
        print(f"{os.path.relpath(path, ROOT)}: removed {ident}: {fmt!r}")
    out = "".join(kept)
    out, n = re.subn(r"(\n    too_generic: )(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + len(refused)), out, count=1)
    if n == 0:
        out = re.sub(r"(\n  skipped:\n)", r"\1    too_generic: %d\n" % len(refused), out, count=1)
    open(path, "w", encoding="utf-8").write(out)
    return len(refused)


def main():
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(ROOT, "kb/messages/*.yaml")))
    total = sum(prune(f) for f in files)
    print(f"{total} entries removed")


if __name__ == "__main__":
    main()
