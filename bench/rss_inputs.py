#!/usr/bin/env python3
"""Inputs for the peak-RSS section of bench/scale.sh: rss_inputs.py OUT [--files N].
Deterministic, standard library only. OUT/
  many/       N small plogs in directories of 1,000 (one INFO line each, one error every 1,000th)
  secrets/    train.log: 50 MiB, a secret on every line (what bundle must redact)
  mem.jsonl   memory samples (mem watch's JSON lines), 8 devices, ~150 MiB
  prof/       one op_summary CSV, 1,000,000 operator rows (~250 MiB)
  hccl_test.txt  an HCCL Test output of 1,000,000 result rows
  env.txt     an env dump of 200,000 variables
  host/       a fixture machine (tests/checks/fixtures/healthy-910b) for check and bundle
"""
import argparse
import os
import shutil
from pathlib import Path

here = Path(__file__).resolve().parent
repo = here.parent


def many(out, n):
    for i in range(n):
        d = out / "many" / f"node-{i // 1000:03d}"
        if i % 1000 == 0:
            d.mkdir(parents=True, exist_ok=True)
        line = f"[INFO] APP(1{i},python):2024-09-03-16:49:58.{i % 1000:03d}.100 [train.py:1]1{i} step {i} ok\n"
        if i % 1000 == 999:
            line += (f"[ERROR] RUNTIME(1{i},python):2024-09-03-16:50:00.041.100 [stream.cc:1053]1{i} "
                     "rtStreamSynchronize execute failed, reason=[stream sync timeout] error code 507046\n")
        (d / f"plog-{i}.log").write_text(line)


def secrets(out, size=50 << 20):
    d = out / "secrets"
    d.mkdir(parents=True, exist_ok=True)
    with open(d / "train.log", "w") as f:
        n = 0
        written = 0
        while written < size:
            line = (f"[INFO] APP(2789701,python):2024-09-03-16:49:58.{n % 1000:03d}.100 [train.py:{n % 500}]2789701 "
                    f"step {n} loss 2.{n % 97} --password pw{n:08d} token=Secr{n:08d}et max_tokens=4096 tokenizer ok\n")
            f.write(line)
            written += len(line)
            n += 1


def mem(out, rows=1_000_000):
    with open(out / "mem.jsonl", "w") as f:
        for i in range(rows):
            step, dev = divmod(i, 8)
            alloc = 30_000_000_000 + step * 1_000 + dev
            f.write(f'{{"step": {step}, "time": {1718000000 + step * 0.5}, "device": {dev}, "allocated": {alloc}, '
                    f'"reserved": {alloc + 4_000_000_000}, "max_allocated": {alloc + 1_000_000}, "capacity": 65452113920}}\n')


def prof(out, rows=1_000_000):
    d = out / "prof"
    d.mkdir(parents=True, exist_ok=True)
    head = ("Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start Time(us),"
            "Task Duration(us),Task Wait Time(us),Block Num,Mix Block Num,HF32 Eligible,Input Shapes,Input Data Types,"
            "Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID,aicore_time(us),aic_total_cycles,"
            "cube_utilization(%)\n")
    types = ["MatMulV3", "Add", "Mul", "Softmax", "LayerNorm", "Cast", "Transpose", "ReduceSum"]
    with open(d / "op_summary_20250312093512.csv", "w") as f:
        f.write(head)
        t = 1741771815000000.0
        for i in range(rows):
            ty = types[i % len(types)]
            dur = 5.0 + (i % 97)
            f.write(f'0,4294967295,{i % 65536},2,aclnn{ty}_{i % 1000},{ty},static,AI_CORE,"{t:.3f}\t",{dur},0,20,0,NO,'
                    f'"""4096,4096""",DT_BF16,ND,"""4096,4096""",DT_BF16,ND,N/A,{dur * 0.9:.3f},123456,80.1\n')
            t += dur + 1


def hccl_test(out, rows=1_000_000):
    with open(out / "hccl_test.txt", "w") as f:
        f.write("# mpirun -n 8 ./bin/all_reduce_test -b 8K -e 64M -f 2 -d fp32 -o sum -p 8\n")
        f.write("data_size(Bytes): | aveg_time(us): | alg_bandwidth(GB/s): | check_result:\n")
        for i in range(rows):
            size = 8192 << (i % 14)
            f.write(f"{size} | {50 + i % 700}.{i % 100:02d} | {size / 1e3 / (50 + i % 700):.5f} | success\n")


def env(out, n=200_000):
    with open(out / "env.txt", "w") as f:
        for i in range(n):
            f.write(f"VAR_{i}=value_{i}\n")
        f.write("MASTER_ADDR=10.0.0.1\nMASTER_PORT=29500\nWORLD_SIZE=16\nRANK=0\nHCCL_CONNECT_TIMEOUT=1200\n")


def host(out):
    src = repo / "tests" / "checks" / "fixtures" / "healthy-910b"
    shutil.copytree(src, out / "host", symlinks=True)
    # Relative links in bin/ point into the fixture tree: make them absolute.
    for e in (out / "host" / "bin").iterdir():
        if e.is_symlink() and not os.path.isabs(os.readlink(e)):
            target = (src / "bin" / os.readlink(e)).resolve()
            e.unlink()
            e.symlink_to(target)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--files", type=int, default=100_000)
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    many(out, a.files)
    secrets(out)
    mem(out)
    prof(out)
    hccl_test(out)
    env(out)
    host(out)


if __name__ == "__main__":
    main()
