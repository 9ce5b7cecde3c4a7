#!/bin/sh
# What `npu-doctor run` costs a job that prints 50 MB/s of training log: the CPU it adds
# and how late the job's lines reach the reader, against the job alone and against rg
# reading the same stream (bench/README.md).
#   bench/run_overhead.sh [SECONDS] [RATE_MB_S]        (default 10 s at 50 MB/s)
# $NPU_DOCTOR: the binary (default build/src/npu-doctor). Needs /usr/bin/time, rg, python3.
set -eu
seconds=${1:-10}
rate=${2:-50}
here=$(cd "$(dirname "$0")" && pwd)
npu_doctor=${NPU_DOCTOR:-$here/../build/src/npu-doctor}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_log.py" 64 "$work/train.log" --error-rate 1e-4 > /dev/null
job="python3 $here/paced_writer.py $work/train.log --rate $rate --seconds $seconds"
export ASCEND_PROCESS_LOG_PATH="$work/plogs" NO_COLOR=1   # an empty plog folder: only the stream

# CPU seconds (user + system) of a command and everything it waited for.
cpu() { # cpu NAME COMMAND...
  name=$1
  shift
  /usr/bin/time -f "%U %S %M" -o "$work/time.$name" "$@"
  awk -v n="$name" '{ printf "%s\t%.2f\t%d\n", n, $1 + $2, $3 }' "$work/time.$name"
}
echo "# $seconds s at $rate MB/s; CPU seconds (user+sys), peak RSS KiB"
{
  cpu job sh -c "$job > /dev/null"
  cpu run sh -c "'$npu_doctor' run --no-pty -- $job > /dev/null"
  $job | cpu rg rg -c '(?:ACL|HCCL|ATC|ERROR)[\s:]*(\d{6})' > /dev/null || true
} | tee "$work/cpu"
awk -v s="$seconds" -v r="$rate" '
  { cpu[$1] = $2 }
  END {
    added = cpu["run"] - cpu["job"]
    printf "npu-doctor run added %.2f CPU s (%.1f%% of one core; %.2f CPU s per GB); rg on the same stream %.2f CPU s; ratio %.2f\n",
      added, 100 * added / s, added / (s * r / 1000), cpu["rg"], (cpu["rg"] > 0 ? added / cpu["rg"] : 0)
  }' "$work/cpu"

echo "# pass-through latency: label, bytes, markers, median / p99 / max ms"
$job | python3 "$here/latency_reader.py" pipe
"$npu_doctor" run --no-pty -- $job | python3 "$here/latency_reader.py" npu-doctor-run
