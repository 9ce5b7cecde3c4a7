#!/usr/bin/env python3
"""Writes a knowledge base of a chosen size for bench/kb_growth.sh.

  kb_subset.py KB_DIR OUT_DIR FACTOR

Copies the hand-written files (KB_DIR/*.yaml) and enough entries of the message catalogue
(KB_DIR/messages/*.yaml, one pattern each) for FACTOR times the hand-written files'
pattern count, taken evenly across its files (every k-th entry, so each component is
represented in proportion): the extra patterns are real message formats. FACTOR = 0 takes
the whole catalogue. Prints the pattern count.
"""
import glob
import os
import re
import shutil
import sys


def entry_blocks(text):
    """(header, [entry text]) of a catalogue file: entries start at '  - id:' lines."""
    head, _, body = text.partition("\nentries:\n")
    blocks = re.split(r"(?m)^(?=  - id: )", body)
    return head + "\nentries:\n", [b for b in blocks if b.startswith("  - id: ")]


def curated_patterns(kb_dir):
    import yaml
    n = 0
    for f in glob.glob(os.path.join(kb_dir, "*.yaml")):
        d = yaml.safe_load(open(f, encoding="utf-8")) or {}
        n += len(d.get("extractors") or [])
        for e in d.get("entries") or []:
            m = e.get("match") or []
            n += len(m) if isinstance(m, list) else 1
    return n


def main():
    kb_dir, out_dir, factor = sys.argv[1], sys.argv[2], float(sys.argv[3])
    base = curated_patterns(kb_dir)
    extra = -1 if factor == 0 else int(round((factor - 1) * base))
    os.makedirs(out_dir, exist_ok=True)
    for f in glob.glob(os.path.join(kb_dir, "*.yaml")):
        shutil.copy(f, out_dir)
    files = sorted(glob.glob(os.path.join(kb_dir, "messages", "*.yaml")))
    parsed = [(f, *entry_blocks(open(f, encoding="utf-8").read())) for f in files]
    total = sum(len(blocks) for _, _, blocks in parsed)
    if extra < 0 or extra >= total:
        step = 1.0
    else:
        step = total / max(extra, 1)
    taken = 0
    counter = 0.0
    for f, head, blocks in parsed:
        kept = []
        for b in blocks:
            counter += 1.0
            if extra < 0 or (counter >= step and taken < extra):
                kept.append(b)
                taken += 1
                counter -= step
        if kept:
            name = "messages_" + os.path.basename(f)
            with open(os.path.join(out_dir, name), "w", encoding="utf-8") as out:
                out.write(head + "".join(kept))
    print(base + taken)


if __name__ == "__main__":
    main()
