#!/usr/bin/env python3
"""Writes data/gate-background.log: healthy log text for choosing the scan gate.

The gate (docs/scanning.md) should not be made of words that healthy logs print all the
time. The best sample of those words is what the stack itself prints when nothing is
wrong: the INFO and DEBUG log calls of the same sources the message catalogue
reads its ERROR-level calls from (kb/messages/, docs/kb-messages.md). This script takes
those format strings from fetched snapshots (the search tool's `fetch`: bare git dirs),
fills their placeholders, prints them in the formats the logs use, and adds generated
plog noise (bench/gen_log.py) and the repository's healthy fixture logs.

usage: make_background.py MIRROR_DIR OUT    (MIRROR_DIR holds <owner>+<name>/repo)
"""
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# (snapshot, plog module, C/C++ macros at a healthy level, python logger levels)
SOURCES = [
    ("hicann+hccl", "HCCL", ["HCCL_INFO", "HCCL_DEBUG", "HCCL_RUN_INFO"], []),
    ("libochao-huawei+hcomm", "HCCL", ["HCCL_INFO", "HCCL_DEBUG", "HCCL_RUN_INFO"], []),
    ("hicann+runtime", "RUNTIME", ["RT_LOG_INFO", "RT_LOG_DEBUG", "RT_LOG_EVENT", "ACL_LOG_INFO", "SELF_LOG_INFO",
                                   "MSPROF_LOGI", "IDE_LOGI", "BQS_LOG_INFO", "INFO_LOG"], []),
    ("hicann+driver", "DRV", ["devdrv_info", "trs_info", "trs_debug", "dms_info", "roce_info", "devmm_drv_debug"], []),
    ("hicann+ge", "GE", ["GELOGI", "GELOGD", "GEEVENT"], []),
    ("Ascend+pytorch", "PTA", ["ASCEND_LOGI", "ASCEND_LOGD"], ["info", "debug"]),
    ("vllm-project+vllm-ascend", "", [], ["info", "debug"]),
]
PER_SOURCE = 700  # lines per source: enough words, small file

# MACRO("format"...) or RT_LOG(RT_LOG_INFO, "format"...)
C_CALL = re.compile(r'\b(%s)\s*\(\s*(?:[A-Z_]+,\s*)?"((?:[^"\\]|\\.)*)"')
PY_CALL = re.compile(r'\blogger\.(%s)\(\s*f?"((?:[^"\\]|\\.)*)"')
PLACEHOLDER = re.compile(r'%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t)?[diouxXeEfgGcsp]|\{[^{}]*\}')


def fill(fmt, rng):
    def one(m):
        t = m.group(0)
        if t.endswith("s") or t.startswith("{"):
            return rng.choice(["model", "rank0", "stream", "npu:0", "layer_3", "default"])
        if t.endswith(("x", "X", "p")):
            return "0x%x" % rng.randrange(1 << 20)
        return str(rng.randrange(1000))
    return PLACEHOLDER.sub(one, fmt).replace("\\n", " ").replace('\\"', '"')


def grep(snapshot, pattern):
    try:
        return subprocess.run(["git", "-C", snapshot, "grep", "-h", "-E", pattern, "HEAD"],
                              capture_output=True, text=True, errors="replace").stdout
    except FileNotFoundError:
        return ""


def main():
    mirror, out = sys.argv[1], sys.argv[2]
    rng = random.Random(7)
    lines = []
    for name, module, macros, levels in SOURCES:
        snapshot = os.path.join(mirror, name, "repo")
        found = []
        if macros:
            # RT_LOG_INFO stands for RT_LOG(RT_LOG_INFO, ...).
            text = grep(snapshot, "(%s)\\(|RT_LOG\\((%s)," % ("|".join(macros), "|".join(macros)))
            text = re.sub(r"\bRT_LOG\(\s*(RT_LOG_[A-Z]+)\s*,", lambda m: m.group(1) + "(", text)
            found += [("INFO", f) for _, f in re.findall(C_CALL.pattern % "|".join(macros), text)]
        if levels:
            text = grep(snapshot, "logger\\.(%s)\\(" % "|".join(levels))
            found += [(lvl.upper(), f) for lvl, f in re.findall(PY_CALL.pattern % "|".join(levels), text)]
        found = sorted(set(found))
        rng.shuffle(found)
        for level, fmt in found[:PER_SOURCE]:
            msg = fill(fmt, rng)
            if module:
                lines.append("[%s] %s(4242,python):2025-03-02-10:55:12.313.101 [src.cc:1]4243 %s" % (level, module, msg))
            else:
                lines.append("%s 03-02 10:55:12 [worker.py:100] %s" % (level, msg))
        print("%s: %d formats, %d used" % (name, len(found), min(len(found), PER_SOURCE)), file=sys.stderr)
    noise = subprocess.run([sys.executable, os.path.join(REPO, "bench", "gen_log.py"), "1", "-", "--error-rate", "0",
                            "--seed", "7"], capture_output=True, text=True).stdout.splitlines()[:1400]
    lines += noise
    for f in sorted(os.listdir(os.path.join(REPO, "tests", "fixtures", "logs"))):
        if f.startswith("healthy"):
            lines += open(os.path.join(REPO, "tests", "fixtures", "logs", f), encoding="utf-8").read().splitlines()
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
