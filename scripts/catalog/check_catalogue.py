#!/usr/bin/env python3
"""Checks generated catalogue files the way the build will, before the build can (and after):

- every file loads (PyYAML), ids are unique across kb/messages/*.yaml;
- every sample matches its own entry's generated pattern (catalog_lib.pattern_of) and, among
  all catalogue entries that apply to the line, its own entry wins (the most literal text;
  docs/kb-messages.md; an entry with `level: error` applies only to error-level lines);
- samples of entries with `level: error` are error-level lines (as the build reads a level);
- a sample that a hand-written entry (kb/*.yaml) also recognises is listed with both
  categories, so the catalogue entry can be made to agree (the curated one wins at run time).
  Wrappers and hints are left out, as catalog_rules.curated_claims leaves them (the extractors
  copy no category from them): python.exception claims every "RuntimeError: " line.

Usage: check_catalogue.py [FILE...]   (default: every kb/messages/*.yaml; the files given are
the ones whose samples are checked, all files compete)
Exit status 1 when a check fails.
"""
import glob
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog_lib as lib  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORD = re.compile(r"[A-Za-z0-9_]{4,}")


def literal_len(fmt, style):
    return sum(len(r) for r in lib.literal_runs(fmt.split("\n")[0], style))


def catalogue_entries(paths, required):
    out = []
    for p in paths:
        try:
            d = lib.load_yaml(p)
        except yaml.YAMLError as err:
            # Another extractor may be rewriting its file right now; only the files being
            # checked must load.
            if p in required:
                raise
            print(f"warning: {os.path.basename(p)} does not load, left out of the competition: {str(err).splitlines()[0]}")
            continue
        dflt = d.get("defaults", {})
        for e in d.get("entries", []):
            style = e.get("format_style", dflt.get("format_style", "printf"))
            if "format" not in e:
                continue
            regex, _ = lib.pattern_of(e["format"], style, tuple(e.get("raised_as", ())))
            out.append({"file": os.path.basename(p), "id": e["id"], "regex": regex and re.compile(regex),
                        "lit": literal_len(e["format"], style), "category": e.get("category", dflt.get("category")),
                        "level": e.get("level", dflt.get("level", "any")), "samples": e.get("samples", {}).get("match", []),
                        "words": set(WORD.findall(" ".join(lib.literal_runs(e["format"].split("\n")[0], style))))})
    return out


def curated_patterns():
    """(id, category, regex) of the hand-written entries' message patterns, wrappers and hints
    left out (they say nothing about the category)."""
    out = []
    for p in sorted(glob.glob(os.path.join(ROOT, "kb/*.yaml"))):
        d = lib.load_yaml(p)
        if not isinstance(d, dict):
            continue
        dflt = d.get("defaults", {})
        for e in d.get("entries", []):
            if e.get("role", dflt.get("role", "cause")) in ("wrapper", "hint"):
                continue
            for m in e.get("match", []) or []:
                rx, ic = (m, e.get("ignore_case", dflt.get("ignore_case", False))) if isinstance(m, str) else (m["regex"], m.get("ignore_case", False))
                try:
                    out.append((e["id"], e.get("category", dflt.get("category")),
                                re.compile(lib.python_regex(rx), re.I if ic else 0)))
                except re.error:
                    pass
    return out


# What the build reads as an error-level line (find_level in src/core/line_info.cpp), roughly:
# c10 logging writes the month unpadded inside brackets ("[rank0]:[E302 10:55:12.313101248
# ProcessGroupHCCL.cpp:472]" on 2 March), glog pads it ("E0302 10:55:12.313101 ...").
ERROR_LEVEL = re.compile(r"\[ERROR\]|\bERROR\b|\| ERROR|\bE\d{4} |\[[EF][ \d]")


def main(argv):
    all_files = sorted(glob.glob(os.path.join(ROOT, "kb/messages/*.yaml")))
    checked = [os.path.abspath(a) for a in argv] or all_files
    entries = catalogue_entries(all_files, checked)
    by_word = {}
    for e in entries:
        for w in e["words"]:
            by_word.setdefault(w, []).append(e)
    ids = {}
    failures = 0
    for e in entries:
        if e["id"] in ids:
            print(f"duplicate id {e['id']} in {e['file']} and {ids[e['id']]}")
            failures += 1
        ids[e["id"]] = e["file"]
    curated = curated_patterns()
    overlaps = []
    for e in entries:
        if os.path.join(ROOT, "kb/messages", e["file"]) not in checked:
            continue
        if e["regex"] is None:
            print(f"{e['file']}: {e['id']}: no pattern (too generic)")
            failures += 1
            continue
        for s in e["samples"]:
            if not e["regex"].search(s):
                print(f"{e['file']}: {e['id']}: sample does not match its own pattern: {s}")
                failures += 1
                continue
            error_line = bool(ERROR_LEVEL.search(s))
            if e["level"] == "error" and not error_line:
                print(f"{e['file']}: {e['id']}: level error but the sample is not an error-level line: {s}")
                failures += 1
            # An entry with `level: error` is not tried on other lines (hcomm's '%s: Unknown
            # exception' never sees torch_npu's "RuntimeError: Unknown exception: foo").
            rivals = {id(x): x for w in WORD.findall(s) for x in by_word.get(w, ())
                      if error_line or x["level"] != "error"}
            best = max((x for x in rivals.values() if x["regex"] is not None and x["regex"].search(s)),
                       key=lambda x: x["lit"], default=None)
            if best is not None and best["id"] != e["id"] and best["lit"] > e["lit"]:
                print(f"{e['file']}: {e['id']}: sample won by {best['file']}:{best['id']}: {s}")
                failures += 1
            for cid, ccat, crx in curated:
                if crx.search(s):
                    overlaps.append((e["file"], e["id"], e["category"], cid, ccat))
                    break
    disagree = [o for o in overlaps if o[2] != o[4]]
    print(f"{len(entries)} catalogue entries; {len(overlaps)} samples also claimed by a curated entry, "
          f"{len(disagree)} with a different category")
    for o in disagree:
        print(f"  {o[0]}: {o[1]} ({o[2]}) vs curated {o[3]} ({o[4]})")
    return 1 if failures or disagree else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
