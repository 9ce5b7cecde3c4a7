#!/usr/bin/env python3
"""Builds the seed corpus of every fuzz harness from tests/fixtures (nothing is copied
into fuzz/): make_corpus.py <source dir> <build dir> <out dir>. <out dir>/<harness>/ gets
one file per seed. Seeds are capped in size (libFuzzer's -max_len follows the largest
seed), and harnesses whose first byte is a selector get it prepended."""
import bz2
import gzip
import hashlib
import io
import lzma
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

MAX_SEED = 16 << 10  # bytes of a text seed


def files(root, *patterns):
    out = []
    for p in patterns:
        out += sorted(x for x in root.glob(p) if x.is_file())
    return out


class Corpus:
    def __init__(self, out):
        self.out = out
        self.counts = {}

    def add(self, harness, data, prefix=b""):
        d = self.out / harness
        d.mkdir(parents=True, exist_ok=True)
        data = prefix + data
        (d / hashlib.sha1(data).hexdigest()).write_bytes(data)
        self.counts[harness] = self.counts.get(harness, 0) + 1

    def add_files(self, harness, paths, prefix=b"", cap=MAX_SEED):
        for p in paths:
            self.add(harness, p.read_bytes()[:cap], prefix)


def archives(text, name):
    """The same text as every container input_source reads."""
    out = [gzip.compress(text), bz2.compress(text), lzma.compress(text)]
    for fmt in (tarfile.USTAR_FORMAT, tarfile.GNU_FORMAT):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=fmt) as t:
            info = tarfile.TarInfo(name)
            info.size = len(text)
            t.addfile(info, io.BytesIO(text))
            inner = gzip.compress(text)  # one nested level: a .gz inside the tar
            info = tarfile.TarInfo(name + ".gz")
            info.size = len(inner)
            t.addfile(info, io.BytesIO(inner))
        out.append(buf.getvalue())
        out.append(gzip.compress(buf.getvalue()))
        out.append(buf.getvalue()[: len(buf.getvalue()) // 2])  # cut short
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(name, text)
    out.append(buf.getvalue())
    for tool in (["zstd", "-q", "-c"], ["lz4", "-q", "-c"]):
        try:
            out.append(subprocess.run(tool, input=text, capture_output=True, check=True, timeout=20).stdout)
        except (OSError, subprocess.SubprocessError):
            pass  # the tool is optional: the other formats still seed the harness
    return out


def node_summaries(binary, logs):
    """Summaries written by the binary itself (cluster --summary-out), one per log."""
    out = []
    if not binary.exists():
        return out
    with tempfile.TemporaryDirectory() as tmp:
        for i, log in enumerate(logs):
            target = Path(tmp) / f"node{i}.json"
            try:
                subprocess.run([str(binary), "cluster", "--logs", str(log), "--summary-out", str(target),
                                "--hostname", f"node-{i}", "-o", os.devnull],
                               capture_output=True, timeout=120)
            except subprocess.SubprocessError:
                continue
            if target.exists():
                out.append(target.read_bytes())
    return out


def bundles(binary, root, logs):
    """A support bundle written by the binary itself, and its probe record."""
    out = []
    if not binary.exists():
        return out
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "bundle.tar.gz"
        try:
            subprocess.run([str(binary), "bundle", "--root", str(root), "--no-default-logs", "--logs", str(logs),
                            "--timeout", "5", "-o", str(target)], capture_output=True, timeout=300)
        except subprocess.SubprocessError:
            return out
        if not target.exists():
            return out
        data = target.read_bytes()
        out.append(b"\x00" + data)
        try:
            with tarfile.open(target) as t:
                for m in t.getmembers():
                    if m.name.endswith("probe-record.json") and m.isfile():
                        out.append(b"\x01" + t.extractfile(m).read())
        except (tarfile.TarError, OSError):
            pass
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: make_corpus.py <source dir> <build dir> <out dir>")
    src, build, out = (Path(a).resolve() for a in sys.argv[1:])
    t = src / "tests"
    fx = t / "fixtures"
    c = Corpus(out)

    logs = files(fx, "logs/*.log", "realworld-dev/*.log") + files(t, "memory/fixtures/*.log", "compile/fixtures/*.log")
    c.add_files("line-info", logs, cap=4096)
    c.add_files("scanner", logs, prefix=b"\x43")  # 128-byte blocks, reads of up to 98 bytes
    c.add_files("scanner", logs[:8], prefix=b"\x18")
    for log in logs[:6]:
        for a in archives(log.read_bytes()[:MAX_SEED], log.name):
            c.add("input-source", a)
    c.add_files("input-source", logs[:6])

    c.add_files("kb-yaml", files(src, "kb/*.yaml") + files(fx, "bad-kb/*.yaml", "site-kb/*.yaml"), cap=64 << 10)
    snapshot = build / "src" / "kb.snapshot"
    if snapshot.exists():
        c.add("kb-snapshot", snapshot.read_bytes())

    checks = t / "checks" / "fixtures"
    c.add_files("version-files", files(checks, "*/root/usr/local/Ascend/**/*.info", "*/root/usr/local/Ascend/**/version.cfg",
                                       "*/root/etc/ascend_install.info"))
    c.add_files("system-files", files(checks, "*/root/proc/**/*", "*/root/etc/passwd", "*/root/etc/group",
                                      "*/root/**/METADATA", "*/bin/python.out/*", "*/root/sys/devices/system/node/*/cpulist"))
    c.add_files("npu-smi", files(fx, "npu-smi/*") + files(checks, "*/bin/npu-smi.out/*"))

    hccl = t / "hccl" / "fixtures"
    c.add_files("hccn-tool", files(hccl, "hccn/*"), prefix=b"\xff")
    c.add_files("hccn-tool", files(hccl, "hccn/*")[:2], prefix=b"\x03")
    c.add_files("hccl-test", files(hccl, "hccl_test/*"))
    c.add_files("rank-table", files(hccl, "ranktable/*"), cap=64 << 10)
    c.add_files("env-dump", files(hccl, "env/**/*") + files(checks, "*/env", "*/root/proc/*/environ"))

    mem = t / "memory" / "fixtures"
    c.add_files("mem-samples", files(mem, "*.jsonl", "*.log"))
    lines = b"".join(b'{"step": %d, "time": %d.5, "device": %d, "allocated": %d, "reserved": %d, "max_allocated": %d}\n'
                     % (s, 1700000000 + s, s % 2, (1 << 30) + s * 4096, 2 << 30, (1 << 30) + s * 8192) for s in range(40))
    c.add("mem-samples", lines)

    prof = t / "profile" / "fixtures"
    kinds = {"op_summary": 0, "kernel_details": 1, "op_statistic": 2, "step_trace_time": 3,
             "cluster_step_trace_time": 4, "cluster_communication": 5, "api_statistic": 6}
    for p in files(prof, "**/*.csv", "**/*.json"):
        stem = p.stem
        knob = next((v for k, v in sorted(kinds.items(), key=lambda kv: -len(kv[0])) if stem.startswith(k)), 7)
        c.add("msprof-csv", p.read_bytes()[: 64 << 10], prefix=bytes([knob]))
        c.add("msprof-csv", p.read_bytes()[:MAX_SEED], prefix=bytes([7]))  # the bare CSV reader

    comp = t / "compile" / "fixtures"
    for p in files(comp, "**/*"):
        knob = 1 if p.name.endswith(".json") else 2 if p.name == "op_not_support.log" else 0
        c.add("atc", p.read_bytes()[:MAX_SEED], prefix=bytes([knob]))

    for s in node_summaries(build / "src" / "npu-doctor", files(fx, "logs/*.log")[:3]):
        c.add("node-summary", s)

    for b in bundles(build / "src" / "npu-doctor", checks / "healthy-910b" / "root", fx / "logs"):
        c.add("bundle", b)

    for h, n in sorted(c.counts.items()):
        print(f"{h}: {n} seeds")


if __name__ == "__main__":
    main()
