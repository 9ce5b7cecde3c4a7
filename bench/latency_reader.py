#!/usr/bin/env python3
"""Reads stdin to its end and reports how late the writer's marker lines arrived.

    ... | latency_reader.py LABEL

Each `NPU_DOCTOR_MARK <CLOCK_MONOTONIC ns>` line (paced_writer.py) is taken when the read
that brought it returns; prints one line: LABEL, bytes, markers, median / p99 / max
latency in milliseconds. Standard library only.
"""
import os
import sys
import time

MARK = b"NPU_DOCTOR_MARK "


def main():
    label = sys.argv[1] if len(sys.argv) > 1 else "stdin"
    fd = sys.stdin.fileno()
    lat = []
    total = 0
    carry = b""
    while True:
        buf = os.read(fd, 1 << 20)
        if not buf:
            break
        now = time.monotonic_ns()
        total += len(buf)
        buf = carry + buf
        at = 0
        while True:
            i = buf.find(MARK, at)
            if i < 0:
                break
            j = buf.find(b"\n", i)
            if j < 0:
                break
            lat.append((now - int(buf[i + len(MARK):j])) / 1e6)
            at = j + 1
        cut = buf.rfind(b"\n")
        carry = buf[cut + 1:] if cut >= 0 else buf
        carry = carry[-256:]
    lat.sort()
    if not lat:
        print(f"{label}\t{total}\t0\t-\t-\t-")
        return 0
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))]
    print(f"{label}\t{total}\t{len(lat)}\t{p(0.5):.3f}\t{p(0.99):.3f}\t{lat[-1]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
