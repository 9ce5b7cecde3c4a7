#!/usr/bin/env bash
# compare.sh [SIZE_MB]: npu-doctor diagnose against its peers on one generated log.
#
# Generates a SIZE_MB MiB log (default 200) with bench/gen_log.py, warms the page cache,
# then times on the same file (median of several runs; hyperfine if installed):
#   cat FILE > /dev/null                                 reading speed, the floor
#   rg -c '(?:ACL|HCCL|ATC|ERROR)[\s:]*(\d{6})' FILE      ripgrep with the seed guide's regex
#   npu-doctor diagnose -j 1 --format json FILE          the whole knowledge base, one pass
#   python3 bench/seed_baseline.py FILE                  the seed guide's script (slow: 2 runs)
# and prints seconds, MiB/s, ratio to npu-doctor and peak resident memory (/usr/bin/time -v).
#
# Environment:
#   NPU_DOCTOR                  the npu-doctor binary (default: build-bench/, build/ under the repo)
#   NPU_DOCTOR_BENCH_LOG        use this log; if it does not exist, generate it there and keep it
#   NPU_DOCTOR_BENCH_ERROR_RATE error bursts per line for gen_log.py (default 5e-6; 1e-3 = dense)
#   NPU_DOCTOR_BENCH_SEED       gen_log.py seed (default 7)
#   RUNS                        timed runs per fast tool (default 10)
#   SEED_RUNS                   runs of the seed script (default 2)
#   NO_HYPERFINE=1              time with a date +%s.%N loop even if hyperfine is installed
# Run as `sh bench/...` too: the rest is bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
size_mb=${1:-200}
runs=${RUNS:-10}
seed_runs=${SEED_RUNS:-2}
error_rate=${NPU_DOCTOR_BENCH_ERROR_RATE:-5e-6}
gen_seed=${NPU_DOCTOR_BENCH_SEED:-7}
seed_regex='(?:ACL|HCCL|ATC|ERROR)[\s:]*(\d{6})'

die() { echo "compare.sh: $*" >&2; exit 2; }

# ---- tools -------------------------------------------------------------------------
npu=${NPU_DOCTOR:-}
if [[ -z $npu ]]; then
  for c in "$repo/build-bench/src/npu-doctor" "$repo/build/src/npu-doctor" "$(command -v npu-doctor || true)"; do
    if [[ -n $c && -x $c ]]; then npu=$c; break; fi
  done
fi
[[ -n $npu && -x $npu ]] || die "npu-doctor binary not found; build it or set NPU_DOCTOR"
command -v rg >/dev/null || die "ripgrep (rg) is missing: apt-get install -y ripgrep"
command -v python3 >/dev/null || die "python3 is missing"
[[ -x /usr/bin/time ]] || die "/usr/bin/time is missing: apt-get install -y time"
have_hyperfine=0
[[ -z ${NO_HYPERFINE:-} ]] && command -v hyperfine >/dev/null && have_hyperfine=1

work=$(mktemp -d "${TMPDIR:-/tmp}/npu-doctor-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# ---- the log ------------------------------------------------------------------------
log=${NPU_DOCTOR_BENCH_LOG:-$work/bench.log}
if [[ ! -s $log ]]; then
  echo "generating ${size_mb} MiB log (seed $gen_seed, error rate $error_rate) -> $log" >&2
  t0=$(date +%s.%N)
  python3 "$here/gen_log.py" "$size_mb" "$log" --seed "$gen_seed" --error-rate "$error_rate"
  t1=$(date +%s.%N)
  echo "  generated in $(python3 -c "print(f'{$t1-$t0:.1f}')") s" >&2
else
  echo "reusing $log" >&2
fi
bytes=$(stat -c %s "$log")
mib=$(python3 -c "print(f'{$bytes/1048576:.1f}')")

# ---- sanity runs: exit codes (npu-doctor: 0 nothing found, 1 root cause found) -----------
cat "$log" >/dev/null; cat "$log" >/dev/null   # warm the page cache
set +e
"$npu" diagnose -j 1 --format json "$log" >"$work/report.json" 2>"$work/npu.err"
npu_rc=$?
rg -c "$seed_regex" "$log" >"$work/rg.out"
rg_rc=$?
set -e
((npu_rc <= 1)) || { cat "$work/npu.err" >&2; die "npu-doctor failed with exit status $npu_rc"; }
((rg_rc <= 1)) || die "rg failed with exit status $rg_rc"
summary=$(python3 - "$work/report.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
fs = r.get("findings", [])
root = r.get("root_cause") or {}
rid = (root.get("rule") or root.get("key") or root.get("id")) if isinstance(root, dict) else root
print(f"{len(fs)} findings, root cause {rid}")
EOF
) || summary="(report not parsed)"

# ---- timing -------------------------------------------------------------------------
declare -A secs rss
head -n 100 "$log" >"$work/startup.log"   # npu-doctor's fixed cost: KB load + matcher build
cmd_cat=(cat "$log")
cmd_rg=(rg -c "$seed_regex" "$log")
cmd_npu=("$npu" diagnose -j 1 --format json "$log")
cmd_startup=("$npu" diagnose -j 1 --format json "$work/startup.log")
cmd_seed=(python3 "$here/seed_baseline.py" "$log")

median() { python3 -c 'import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

# Median wall time of "$@" over $n runs, output discarded; failures of rg/npu-doctor
# (exit 1 = "no match" / "root cause found") were checked above.
time_loop() {
  local n=$1; shift
  local ts=()
  for ((i = 0; i < n; i++)); do
    local a b
    a=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    b=$(date +%s.%N)
    ts+=("$(python3 -c "print($b-$a)")")
  done
  median "${ts[@]}"
}

time_fast() {  # name, command...
  local name=$1; shift
  if ((have_hyperfine)); then
    hyperfine -N -i --warmup 2 --runs "$runs" --style none --export-json "$work/$name.json" "$(printf '%q ' "$@")" >/dev/null 2>&1
    secs[$name]=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$work/$name.json")
  else
    "$@" >/dev/null 2>&1 || true   # warm-up
    secs[$name]=$(time_loop "$runs" "$@")
  fi
}

peak_rss() {  # name, command... -> rss[name] in MiB
  local name=$1; shift
  /usr/bin/time -v -o "$work/$name.time" "$@" >/dev/null 2>&1 || true
  rss[$name]=$(awk -F: '/Maximum resident set size/ {printf "%.1f", $2/1024}' "$work/$name.time")
}

echo "timing on $log ($mib MiB, $(wc -l <"$log") lines); $runs runs each, seed script $seed_runs" >&2
time_fast cat "${cmd_cat[@]}"
time_fast rg "${cmd_rg[@]}"
time_fast npu-doctor "${cmd_npu[@]}"
time_fast startup "${cmd_startup[@]}"
peak_rss cat "${cmd_cat[@]}"
peak_rss rg "${cmd_rg[@]}"
peak_rss npu-doctor "${cmd_npu[@]}"
# The seed script is slow: time it under /usr/bin/time, which gives RSS at the same time.
seed_ts=()
seed_rss=()
for ((i = 0; i < seed_runs; i++)); do
  /usr/bin/time -v -o "$work/seed.time" "${cmd_seed[@]}" >/dev/null 2>&1 || true
  seed_ts+=("$(awk '/Elapsed \(wall clock\)/ {n=split($NF,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$work/seed.time")")
  seed_rss+=("$(awk -F: '/Maximum resident set size/ {printf "%.1f", $2/1024}' "$work/seed.time")")
done
secs[seed_baseline.py]=$(median "${seed_ts[@]}")
rss[seed_baseline.py]=$(median "${seed_rss[@]}")

# ---- table --------------------------------------------------------------------------
echo
echo "npu-doctor compare: $mib MiB log ($bytes bytes), error rate $error_rate; $(nproc) cores, $(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -1), $(uname -m); $(date -u +%Y-%m-%d)"
echo "npu-doctor: $npu (exit $npu_rc: $summary); rg -c: $(grep . "$work/rg.out" 2>/dev/null || echo 0) matching lines"
python3 - "$bytes" <<EOF
import sys
size = int(sys.argv[1]) / 1048576
npu = ${secs[npu-doctor]}
startup = ${secs[startup]}
rows = [
    ("cat > /dev/null", ${secs[cat]}, "${rss[cat]}"),
    ("rg -c (seed regex)", ${secs[rg]}, "${rss[rg]}"),
    ("npu-doctor diagnose -j 1", npu, "${rss[npu-doctor]}"),
    ("seed_baseline.py", ${secs[seed_baseline.py]}, "${rss[seed_baseline.py]}"),
]
print(f"| {'tool':<26} | {'seconds':>8} | {'MiB/s':>8} | {'time / npu-doctor':>17} | {'peak RSS MiB':>12} |")
print(f"|{'-'*28}|{'-'*10}|{'-'*10}|{'-'*19}|{'-'*14}|")
for name, s, r in rows:
    print(f"| {name:<26} | {s:>8.3f} | {size / s:>8.0f} | {s / npu:>17.2f} | {float(r or 0):>12.1f} |")
scan = npu - startup
print(f"\nnpu-doctor fixed cost (KB load + matcher build, 100-line log): {startup:.3f} s; "
      + (f"scanning alone: {scan:.3f} s = {size / scan:.0f} MiB/s" if scan > 0.01 * npu else "scanning time lost in the noise"))
seed = ${secs[seed_baseline.py]}
print(f"npu-doctor is {seed / npu:.1f}x faster than the seed script (target >= 50x); "
      f"rg -c takes {${secs[rg]} / npu:.2f}x npu-doctor's time")
EOF
