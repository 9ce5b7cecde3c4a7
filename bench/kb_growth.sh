#!/usr/bin/env bash
# kb_growth.sh [SIZE_MB]: scanning throughput as the knowledge base grows.
#
# Builds knowledge bases of 1x (the hand-written entries), 3x and 10x their pattern count,
# and the whole message catalogue, the extra patterns being real message formats from
# kb/messages/ (bench/kb_subset.py), compiles each with npu-doctor-kbc, and times
# `npu-doctor diagnose -j 1 -f json` with each (NPU_DOCTOR_KB_SNAPSHOT) on the same logs:
# bench/gen_log.py sparse (default error rate) and dense (1e-3), and, when the shared
# generator is there, genlog.py. `rg -c` with the seed guide's regex is timed on each log in
# the same run. Prints MiB/s (best of $RUNS) and peak RSS (/usr/bin/time -v) per cell.
#
# Environment: NPU_DOCTOR (binary), NPU_DOCTOR_KBC (compiler; default next to the binary),
# NPU_DOCTOR_GENLOG (the shared genlog.py; default ../shared/tools/genlog.py if it exists),
# NPU_DOCTOR_KB_DIR (default kb/),
# RUNS (default 3), KB_GROWTH_FULL=0 to leave out the whole catalogue.
# Run as `sh bench/...` too: the rest is bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
size_mb=${1:-256}
runs=${RUNS:-3}
npu=${NPU_DOCTOR:-$repo/build/src/npu-doctor}
kbc=${NPU_DOCTOR_KBC:-$(dirname "$npu")/npu-doctor-kbc}
genlog=${NPU_DOCTOR_GENLOG:-$repo/../shared/tools/genlog.py}
kb_dir=${NPU_DOCTOR_KB_DIR:-$repo/kb}
seed_regex='(?:ACL|HCCL|ATC|ERROR)[\s:]*(\d{6})'
[[ -x $npu && -x $kbc ]] || { echo "kb_growth.sh: build npu-doctor and npu-doctor-kbc first (or set NPU_DOCTOR)" >&2; exit 2; }
command -v rg >/dev/null || { echo "kb_growth.sh: ripgrep (rg) is missing" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/npu-doctor-growth.XXXXXX")
trap 'rm -rf "$work"' EXIT

# ---- logs --------------------------------------------------------------------------
declare -a logs names
python3 "$here/gen_log.py" "$size_mb" "$work/sparse.log" --seed 7 >/dev/null
logs+=("$work/sparse.log"); names+=("gen_log sparse")
python3 "$here/gen_log.py" "$size_mb" "$work/dense.log" --seed 7 --error-rate 1e-3 >/dev/null
logs+=("$work/dense.log"); names+=("gen_log dense")
if [[ -f $genlog ]]; then
  python3 "$genlog" "$size_mb" "$work/genlog.log" >/dev/null
  logs+=("$work/genlog.log"); names+=("genlog.py")
fi

# ---- knowledge bases ------------------------------------------------------------------
declare -A patterns
build_kb() {  # name factor (0: the whole catalogue)
  patterns[$1]=$(python3 "$here/kb_subset.py" "$kb_dir" "$work/kb-$1" "$2")
  "$kbc" "$work/kb-$1.snap" --background "$repo/data/gate-background.log" "$work/kb-$1"/*.yaml 2>"$work/kbc-$1.log" ||
    { tail -5 "$work/kbc-$1.log" >&2; exit 1; }
}
build_kb 1x 1
build_kb 3x 3
build_kb 10x 10
kbs=(1x 3x 10x)
if [[ ${KB_GROWTH_FULL:-1} != 0 ]]; then build_kb full 0; kbs+=(full); fi

best_of() {  # prints the best wall time of $runs runs, in seconds
  local best=999999 t
  for ((i = 0; i < runs; i++)); do
    local a b; a=$(date +%s%N); "$@" >/dev/null 2>&1 || true; b=$(date +%s%N)
    t=$(((b - a) / 1000)); ((t < best)) && best=$t
  done
  python3 -c "print($best / 1e6)"
}
# diagnose exits 1 when it names a root cause: not a failure of the measurement.
rss_of() { { /usr/bin/time -v "$@" 2>&1 >/dev/null || true; } | awk -F: '/Maximum resident/ {printf "%.0f", $2/1024}'; }

echo "npu-doctor kb_growth: ${size_mb} MiB logs; $(nproc) cores, $(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -1); $(date -u +%Y-%m-%d)"
printf '| knowledge base | patterns |'; for n in "${names[@]}"; do printf ' %s MiB/s | RSS MiB |' "$n"; done; echo
printf '|---|---:|'; for _ in "${names[@]}"; do printf -- '---:|---:|'; done; echo
for log in "${logs[@]}"; do cat "$log" >/dev/null; done
printf '| rg -c (seed regex) | |'
for log in "${logs[@]}"; do
  s=$(best_of rg -c "$seed_regex" "$log"); printf ' %.0f | %s |' "$(python3 -c "print($size_mb / $s)")" "$(rss_of rg -c "$seed_regex" "$log")"
done; echo
for k in "${kbs[@]}"; do
  snap="$work/kb-$k.snap"
  printf '| %s | %s |' "$k" "${patterns[$k]}"
  export NPU_DOCTOR_KB_SNAPSHOT=$snap
  for log in "${logs[@]}"; do
    "$npu" diagnose -j 1 -f json "$log" >/dev/null 2>&1 || true  # the first stage compiled once (cache)
    s=$(best_of "$npu" diagnose -j 1 -f json "$log")
    r=$(rss_of "$npu" diagnose -j 1 -f json "$log")
    printf ' %.0f | %s |' "$(python3 -c "print($size_mb / $s)")" "$r"
  done; echo
  unset NPU_DOCTOR_KB_SNAPSHOT
done
for k in "${kbs[@]}"; do echo "$k: $(grep -m1 'scan gate' "$work/kbc-$k.log" | sed 's/^npu-doctor-kbc: //')"; done
