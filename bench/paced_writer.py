#!/usr/bin/env python3
"""A job that prints a training log at a steady rate: for `run_overhead.sh`.

    paced_writer.py SOURCE --rate MB_PER_S --seconds N

Writes the lines of SOURCE (e.g. from gen_log.py), over and over, to stdout in writes of
whole lines (about 64 KiB each), paced so that RATE MB (10^6 bytes) leave per second.
Each write ends with a marker line `NPU_DOCTOR_MARK <CLOCK_MONOTONIC ns>` taken just
before the write, for latency_reader.py. Standard library only.
"""
import argparse
import os
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("--rate", type=float, default=50.0, help="MB (10^6 bytes) per second")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--chunk", type=int, default=64 * 1024)
    a = ap.parse_args()
    data = open(a.source, "rb").read()
    # Chunks of whole lines, cut once.
    chunks, at = [], 0
    while at < len(data):
        end = data.rfind(b"\n", at, at + a.chunk)
        end = at + a.chunk if end < 0 else end + 1
        chunks.append(data[at:end])
        at = end
    out = sys.stdout.fileno()
    rate = a.rate * 1e6
    start = time.monotonic()
    sent = 0
    i = 0
    while True:
        now = time.monotonic()
        if now - start >= a.seconds:
            break
        due = start + sent / rate
        if due > now:
            time.sleep(due - now)
        piece = chunks[i % len(chunks)] + b"NPU_DOCTOR_MARK %d\n" % time.monotonic_ns()
        i += 1
        view = memoryview(piece)
        while view:
            n = os.write(out, view)
            view = view[n:]
        sent += len(piece)
    return 0


if __name__ == "__main__":
    sys.exit(main())
