#!/usr/bin/env python3
"""The table of a fuzz run for docs/hardening.md, from fuzz/run_fuzzers.sh's logs:
summarize_run.py <work dir> [harness...]. Per harness: seconds run, executions, executions
per second, the coverage reached (libFuzzer's last `cov:` and `ft:`), corpus size, and
whether it found something (artifacts)."""
import re
import sys
from pathlib import Path


def stats(log):
    text = log.read_text(errors="replace")
    last = None
    for m in re.finditer(r"^#(\d+)\s+(\w+)\s+cov: (\d+) ft: (\d+) corp: (\d+)/(\S+)", text, re.M):
        last = m
    final = dict(re.findall(r"^stat::(\w+):\s*(\d+)", text, re.M))
    return {
        "execs": int(final.get("number_of_executed_units", last.group(1) if last else 0)),
        "per_sec": int(final.get("average_exec_per_sec", 0)),
        "cov": int(last.group(3)) if last else 0,
        "ft": int(last.group(4)) if last else 0,
        "corpus": f"{last.group(5)} / {last.group(6)}" if last else "-",
        "peak_rss": int(final.get("peak_rss_mb", 0)),
        "crashed": bool(re.search(r"ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer|UndefinedBehaviorSanitizer)|runtime error:", text)),
    }


def main():
    work = Path(sys.argv[1])
    names = sys.argv[2:] or sorted(p.stem for p in (work / "logs").glob("*.txt")
                                   if p.stem not in ("corpus",) and not p.stem.startswith("keep-"))
    print("| harness | executions | exec/s | cov | ft | corpus (inputs / bytes) | peak RSS MB | findings |")
    print("|---|---:|---:|---:|---:|---|---:|---|")
    for h in names:
        log = work / "logs" / f"{h}.txt"
        if not log.exists():
            continue
        s = stats(log)
        found = sorted(p.name for p in (work / "artifacts").glob(f"{h}-*"))
        finding = ", ".join(found) if found else ("crash (see log)" if s["crashed"] else "none")
        print(f"| `{h}` | {s['execs']:,} | {s['per_sec']:,} | {s['cov']:,} | {s['ft']:,} | {s['corpus']} | "
              f"{s['peak_rss']} | {finding} |")


if __name__ == "__main__":
    main()
