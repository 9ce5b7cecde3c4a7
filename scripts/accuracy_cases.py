#!/usr/bin/env python3
"""The root cause npu-doctor names for every case of every labelled corpus (the dev corpus and
each blind batch), one line per case, so that two builds can be compared case by case: did the
knowledge taught from one batch move a case of any other corpus? (docs/accuracy.md)

    python3 scripts/accuracy_cases.py DOCTOR OUT.tsv [--baseline BASE.tsv]

OUT.tsv columns: corpus, case, wanted layer, confidence, root-cause category ("None" when no
root cause), the root cause's entry id. With --baseline, prints the cases whose verdict differs.
"""
import argparse
import csv
import glob
import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cases():
    dirs = [os.path.join(ROOT, "tests/fixtures/realworld-dev")]
    dirs += sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/realworld-blind/batch-*")),
                   key=lambda d: int(d.rsplit("-", 1)[1]))
    for d in dirs:
        with open(os.path.join(d, "index.tsv"), encoding="utf-8") as f:
            for r in csv.DictReader(f, delimiter="\t"):
                yield os.path.basename(d), r["case"], r["layer"], r["confidence"], os.path.join(d, r["case"] + ".log")


def root_cause(doctor, log):
    """The `root_cause` object of `diagnose -f json LOG` (None when none is named); raises
    subprocess.TimeoutExpired or ValueError (output that is not JSON)."""
    p = subprocess.run([doctor, "diagnose", "-f", "json", log], capture_output=True, text=True, timeout=120)
    return json.loads(p.stdout).get("root_cause")


def verdict(doctor, case):
    try:
        root = root_cause(doctor, case[4])
    except (subprocess.TimeoutExpired, ValueError) as e:
        return case[:4] + ("ERROR", type(e).__name__)
    return case[:4] + ((root.get("category"), root.get("rule") or "") if root else ("None", ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("doctor")
    ap.add_argument("out")
    ap.add_argument("--baseline", help="an earlier OUT.tsv to compare with")
    a = ap.parse_args()
    with ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        rows = list(ex.map(lambda c: verdict(a.doctor, c), cases()))
    with open(a.out, "w", encoding="utf-8") as f:
        for r in rows:
            f.write("\t".join(r) + "\n")
    scored = [r for r in rows if r[3] in ("high", "medium")]
    right = [r for r in scored if r[4] == r[2] or (r[2] == "none" and r[4] == "None")]
    print(f"{len(rows)} cases; high/medium top-1 {len(right)}/{len(scored)}")
    if a.baseline:
        with open(a.baseline, encoding="utf-8") as f:
            before = {tuple(l.split("\t")[:2]): l.rstrip("\n").split("\t") for l in f}
        for r in rows:
            b = before.get(r[:2])
            if b and b[4:6] != list(r[4:6]):
                print(f"{r[0]} {r[1]} want {r[2]} ({r[3]}): {b[4]} {b[5]} -> {r[4]} {r[5]}")


if __name__ == "__main__":
    main()
