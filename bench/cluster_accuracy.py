#!/usr/bin/env python3
"""Culprit precision and recall of `npu-doctor diagnose` on synthetic clusters.

    bench/cluster_accuracy.py [--sizes 8,64,512,4096] [--seeds 10] [--doctor PATH]

For every size, fault kind (tests/cluster/gen_cluster.py) and seed, generates a cluster's
logs with clock skew between nodes, runs `npu-doctor diagnose --format json` on it and
compares `cluster.culprit.rank` with the injected culprit. Precision: named culprits that
are right (a culprit named on a healthy run counts as wrong); recall: faults whose culprit
was named. Prints a table per size and kind, and the wall time of the largest runs.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "tests", "cluster", "gen_cluster.py")
KINDS = ["oom", "aicore", "link", "killed", "rankcfg", "none"]


def find_doctor(given):
    for p in [given, os.path.join(HERE, "..", "build", "src", "npu-doctor"), shutil.which("npu-doctor")]:
        if p and os.path.exists(p):
            return p
    sys.exit("npu-doctor not found; pass --doctor")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="8,64,512")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--skew-ms", type=int, default=2000)
    ap.add_argument("--doctor")
    ap.add_argument("--named-peer", default="0.7", help="passed to gen_cluster.py")
    a = ap.parse_args()
    doctor = find_doctor(a.doctor)
    total = {"named": 0, "right": 0, "faults": 0, "found": 0}
    print("| ranks | fault | cases | named | right | precision | recall | median diagnose s |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for size in [int(s) for s in a.sizes.split(",")]:
        seeds = a.seeds if size <= 512 else max(1, a.seeds // 5)
        for kind in KINDS:
            named = right = found = faults = 0
            times = []
            for seed in range(1, seeds + 1):
                with tempfile.TemporaryDirectory() as d:
                    subprocess.run([sys.executable, GEN, d, "--ranks", str(size), "--fault", kind,
                                    "--seed", str(seed), "--skew-ms", str(a.skew_ms), "--named-peer", a.named_peer],
                                   check=True, stdout=subprocess.DEVNULL)
                    truth = json.load(open(os.path.join(d, "truth.json")))["culprit"]
                    t0 = time.time()
                    p = subprocess.run([doctor, "diagnose", "--format", "json", d], capture_output=True, text=True)
                    times.append(time.time() - t0)
                    culprit = ((json.loads(p.stdout).get("cluster") or {}).get("culprit") or {}).get("rank")
                if truth is not None:
                    faults += 1
                if culprit is not None:
                    named += 1
                    if culprit == truth:
                        right += 1
                        found += 1
            times.sort()
            prec = right / named if named else 1.0
            rec = found / faults if faults else 1.0
            print("| %d | %s | %d | %d | %d | %.2f | %s | %.2f |" % (
                size, kind, seeds, named, right, prec, "%.2f" % rec if faults else "n/a", times[len(times) // 2]))
            sys.stdout.flush()
            for k, v in (("named", named), ("right", right), ("faults", faults), ("found", found)):
                total[k] += v
    print("\noverall precision %.3f (%d/%d), recall %.3f (%d/%d)" % (
        total["right"] / max(1, total["named"]), total["right"], total["named"],
        total["found"] / max(1, total["faults"]), total["found"], total["faults"]))


if __name__ == "__main__":
    main()
