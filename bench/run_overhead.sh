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
  /usr/bin/time -q -f "%U %S" -o "$work/time.$name" "$@" || true  # rg exits 1 when nothing matches
  tail -n 1 "$work/time.$name" | awk -v n="$name" '{ printf "%s\t%.2f\n", n, $1 + $2 }'
}
echo "# $seconds s at $rate MB/s: CPU seconds (user+sys)"
{
  cpu job sh -c "$job > /dev/null"
  cpu run sh -c "'$npu_doctor' run --no-pty -- $job > /dev/null"
  # rg on the same stream: the seed guide's regex (as compare.sh), and the words a first
  # pass over a log looks for (case-insensitive alternation, what npu-doctor's gate does).
  $job | cpu rg-seed sh -c "rg -c '(?:ACL|HCCL|ATC|ERROR)[\\s:]*(\\d{6})' > /dev/null"
  $job | cpu rg-words sh -c "rg -ci 'error|fail|exception|timeout' > /dev/null"
} | tee "$work/cpu"
awk -v s="$seconds" -v r="$rate" '
  { cpu[$1] = $2 }
  END {
    added = cpu["run"] - cpu["job"]
    printf "npu-doctor run added %.2f CPU s: %.1f%% of one core, %.2f CPU s per GB passed\n", added, 100 * added / s, added / (s * r / 1000)
    printf "  against rg on the same stream: seed regex %.2f CPU s, words %.2f CPU s (added / words = %.1f)\n",
      cpu["rg-seed"], cpu["rg-words"], (cpu["rg-words"] > 0 ? added / cpu["rg-words"] : 0)
  }' "$work/cpu"

echo "# pass-through latency: label, bytes, markers, median / p99 / max ms"
$job | python3 "$here/latency_reader.py" pipe
"$npu_doctor" run --no-pty -- $job | python3 "$here/latency_reader.py" npu-doctor-run
