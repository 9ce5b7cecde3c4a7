#!/usr/bin/env python3
"""The decisive lines of studied blind batches, for the word fallback's labelled lines
(data/classifier/lines.tsv; docs/accuracy.md, "The real lines of batches 20-54" and "... 55-115").

The rule: the root-cause line of each high/medium case the tool gets right after study,
labelled with the case's category (which its thread confirms); not a line the word fallback
itself decided (that would teach the model its own guess), not a healthy case, and not a line
lines.tsv already has. Only batches that were scored blind and then studied may be given.

    python3 scripts/classifier_real_lines.py DOCTOR FIRST LAST [--lines data/classifier/lines.tsv]

prints the new lines (category, line, source) for batches FIRST..LAST of
tests/fixtures/realworld-blind; append them to lines.tsv and rebuild (the model is retrained).
"""
import argparse
import csv
import os
import sys

from accuracy_cases import ROOT, root_cause


def known_lines(path):
    with open(path, encoding="utf-8") as f:
        return {line.split("\t")[1].strip() for line in f if not line.startswith("#") and line.count("\t") >= 2}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("doctor")
    ap.add_argument("first", type=int)
    ap.add_argument("last", type=int)
    ap.add_argument("--lines", default=os.path.join(ROOT, "data", "classifier", "lines.tsv"))
    args = ap.parse_args()
    have = known_lines(args.lines)
    added = 0
    for b in range(args.first, args.last + 1):
        d = os.path.join(ROOT, "tests", "fixtures", "realworld-blind", f"batch-{b}")
        with open(os.path.join(d, "index.tsv"), encoding="utf-8") as f:
            cases = list(csv.DictReader(f, delimiter="\t"))
        for c in cases:
            if c["confidence"] not in ("high", "medium") or c["layer"] == "none":
                continue
            root = root_cause(args.doctor, os.path.join(d, c["case"] + ".log"))
            if not root or root.get("category") != c["layer"] or (root.get("rule") or "").startswith("words."):
                continue
            text = root["evidence"]["text"].replace("\t", " ").strip()[:400]
            if len(text) < 8 or text in have:
                continue
            have.add(text)
            print(f"{c['layer']}\t{text}\treal log (blind batch {b}, {c['case']}; {c['source_url']})")
            added += 1
    print(f"{added} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
