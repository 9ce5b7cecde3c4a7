#!/bin/sh
# Benchmark of `npu-doctor profile` on a large op_summary CSV: generates SIZE_MB (default
# 1024) of rows in the real msprof column set, then measures wall time and peak memory.
# The CSV is streamed, so peak memory must stay flat whatever the size.
#
#   sh bench/profile_bench.sh [BINARY] [SIZE_MB] [WORK_DIR]
#
# Prints one line: size, rows, wall and user CPU seconds, MiB/s, peak RSS. The generated
# file is removed. Needs python3 and GNU time (/usr/bin/time, Debian package `time`).
set -eu
bin=${1:-build/src/npu-doctor}
size_mb=${2:-1024}
work=${3:-$(mktemp -d)}
csv="$work/op_summary_20250101000000.csv"
mkdir -p "$work"
trap 'rm -f "$csv" "$work/out.json" "$work/time.txt"' EXIT

python3 - "$csv" "$size_mb" <<'PY'
import sys
path, size = sys.argv[1], int(sys.argv[2]) << 20
header = ("Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start Time(us),"
          "Task Duration(us),Task Wait Time(us),Block Num,Mix Block Num,HF32 Eligible,Input Shapes,Input Data Types,"
          "Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID,aicore_time(us),aic_total_cycles\n")
ops = [("MatMulV3", "AI_CORE", 500.25), ("Add", "AI_VECTOR_CORE", 20.5), ("FlashAttentionScore", "MIX_AIC", 400.0),
       ("Cast", "AI_CPU", 150.0), ("hcom_allReduce_", "COMMUNICATION", 300.0), ("LayerNormV3", "AI_VECTOR_CORE", 35.75)]
written, t, i = 0, 1741771815000000.0, 0
with open(path, "w", buffering=1 << 22) as f:
    f.write(header)
    chunk = []
    while written < size:
        typ, core, dur = ops[i % len(ops)]
        row = (f'0,4294967295,{i},2,{typ}_{i % 977},{typ},dynamic,{core},"{t:.3f}\t",{dur},0,20,0,NO,'
               f'"""4096,4096;4096,4096""",DT_BF16;DT_BF16,ND;ND,"""4096,4096""",DT_BF16,ND,N/A,{dur * 0.9:.3f},123456\n')
        chunk.append(row)
        written += len(row)
        t += dur + 3.0
        i += 1
        if len(chunk) >= 10000:
            f.write("".join(chunk))
            chunk = []
    f.write("".join(chunk))
print(i, file=sys.stderr)
PY

bytes=$(stat -c %s "$csv")
rows=$(($(wc -l < "$csv") - 1))
# Exit status 1 is expected (the rows include AI CPU operators: a finding). GNU time then
# writes "Command exited with non-zero status 1" first, so the figures are its last line.
/usr/bin/time -f "%e %U %M" -o "$work/time.txt" "$bin" profile -f json -o "$work/out.json" "$csv" || true
figures=$(tail -n 1 "$work/time.txt")
python3 - "$bytes" "$rows" "$figures" "$work/out.json" <<'PY'
import json, sys
b, rows, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[4]
secs, cpu, kb = (float(x) for x in sys.argv[3].split())
j = json.load(open(out))
assert j["schema"] == "npu-doctor/profile/v1" and j["inputs"][0]["rows"] == rows, "wrong row count"
print(f"profile: {b / 2**20:.0f} MiB, {rows} rows, {secs:.2f} s wall, {cpu:.2f} s user CPU, "
      f"{b / 2**20 / max(secs, 1e-9):.0f} MiB/s, peak RSS {kb / 1024:.1f} MiB, top op {j['top_ops'][0]['type']}")
PY
