#!/usr/bin/env python3
"""Applies catalog_rules.is_python_own_message (a part of too_generic) to the generated
kb/messages/*.yaml without extracting them again (the sources' snapshots may be gone or newer):
an entry whose format is only one of Python's own exception texts is removed and counted under
its file's `skipped: too_generic`; the next extraction of that file leaves it out by itself.
(Only that part: some generators keep entries the rest of too_generic would refuse, e.g. code
entries whose format is not what recognises them.)

Usage: prune_python_own_messages.py [FILE...]   (default: every kb/messages/*.yaml); prints what it removed.
"""
import glob
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog_rules as R  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENTRY = re.compile(r"^  - id: ", re.M)


def prune(path):
    text = open(path, encoding="utf-8").read()
    starts = [m.start() for m in ENTRY.finditer(text)]
    if not starts:
        return 0
    kept, removed = [text[:starts[0]]], 0
    for i, a in enumerate(starts):
        b = starts[i + 1] if i + 1 < len(starts) else len(text)
        block = text[a:b]
        # The last entry's block may run into what follows the list: only the entry is parsed.
        entry = yaml.safe_load(block.replace("  - ", "- ", 1).replace("\n    ", "\n  "))
        entry = entry[0] if isinstance(entry, list) else None
        fmt = entry.get("format") if isinstance(entry, dict) else None
        if isinstance(fmt, str) and R.is_python_own_message(fmt, entry.get("format_style", "printf")):
            print(f"{os.path.relpath(path, ROOT)}: removed {entry['id']}: {fmt!r}")
            removed += 1
            continue
        kept.append(block)
    if removed:
        out = "".join(kept)
        out, n = re.subn(r"(\n    too_generic: )(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + removed), out, count=1)
        if n == 0:
            out = re.sub(r"(\n  skipped:\n)", r"\1    too_generic: %d\n" % removed, out, count=1)
        open(path, "w", encoding="utf-8").write(out)
    return removed


def main():
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(ROOT, "kb/messages/*.yaml")))
    total = sum(prune(f) for f in files)
    print(f"{total} entries removed")


if __name__ == "__main__":
    main()
