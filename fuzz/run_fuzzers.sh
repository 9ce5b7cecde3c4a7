#!/bin/sh
# Runs every libFuzzer harness of a build for a fixed time, two at a time (docs/hardening.md).
#   fuzz/run_fuzzers.sh <build dir> <work dir> <seconds per harness> [parallel] [harness...]
# <work dir>/corpus/<harness> is the corpus (seeded from tests/fixtures and fuzz/corpus/ on first use, and
# grown by every run: keep it for the long campaign), <work dir>/artifacts holds crashing,
# leaking or timing-out inputs and <work dir>/logs each run's output. Exit status 1 when
# any harness found something. FUZZ_SEED=N fixes libFuzzer's random seed (CI does, so that
# a smoke run explores the same mutations each time; the long campaign should not).
set -eu
[ $# -ge 3 ] || { echo "usage: $0 <build dir> <work dir> <seconds> [parallel] [harness...]" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
mkdir -p "$2"
work=$(cd "$2" && pwd)
seconds=$3
parallel=${4:-2}
[ $# -ge 4 ] && shift 4 || shift $#
mkdir -p "$work/corpus" "$work/artifacts" "$work/logs"
# A fresh corpus directory is seeded from the fixtures; an existing one is kept.
if [ ! -e "$work/corpus/.seeded" ]; then
  python3 "$src/fuzz/make_corpus.py" "$src" "$build" "$work/corpus" >"$work/logs/corpus.txt"
  # What earlier long campaigns grew, minimised (fuzz/corpus/<harness>.tar.xz), joins the seeds.
  for kept in "$src"/fuzz/corpus/*.tar.xz; do
    [ -e "$kept" ] || continue
    h=$(basename "$kept" .tar.xz)
    [ -x "$build/fuzz/npu-doctor-fuzz-$h" ] || { echo "$kept: no harness $h in $build/fuzz" >&2; exit 2; }
    mkdir -p "$work/corpus/$h"
    tar -xJf "$kept" -C "$work/corpus/$h"
    echo "$h: $(tar -tJf "$kept" | grep -vc '/$') inputs kept from earlier campaigns" >>"$work/logs/corpus.txt"
  done
  touch "$work/corpus/.seeded"
fi
if [ $# -eq 0 ]; then
  set -- $(cd "$build/fuzz" && ls npu-doctor-fuzz-* | sed 's/^npu-doctor-fuzz-//')
fi

run_one() {
  h=$1
  case $h in
    line-info|scanner) dict=line-info ;;
    rank-table|node-summary|mem-samples|atc) dict=json ;;
    npu-smi) dict=npu-smi ;;
    msprof-csv) dict=csv ;;
    kb-yaml) dict=kb-yaml ;;
    *) dict= ;;
  esac
  set -- -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2560 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/$h-"
  [ -n "${FUZZ_SEED:-}" ] && set -- "$@" -seed="$FUZZ_SEED"
  [ -n "$dict" ] && set -- "$@" -dict="$src/fuzz/dict/$dict.dict"
  # Archives: a few KiB of seed may decompress to a lot; larger inputs only slow the run.
  [ "$h" = input-source ] && set -- "$@" -max_len=65536
  mkdir -p "$work/corpus/$h"
  if "$build/fuzz/npu-doctor-fuzz-$h" "$@" "$work/corpus/$h" >"$work/logs/$h.txt" 2>&1; then
    echo "fuzz $h: ok ($(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/logs/$h.txt" | grep -o '[0-9]*$') runs)"
  else
    echo "fuzz $h: FAILED, see $work/logs/$h.txt and $work/artifacts/" >&2
    grep -m3 -E 'ERROR|runtime error|SUMMARY' "$work/logs/$h.txt" >&2 || true
    return 1
  fi
}

status=0
# `parallel` at a time (each harness is one libFuzzer process); all run the same time, so
# waiting for the oldest first loses nothing.
pids=""
for h in "$@"; do
  run_one "$h" &
  pids="$pids $!"
  set -- $pids
  if [ $# -ge "$parallel" ]; then
    wait "$1" || status=1
    shift
    pids="$*"
  fi
done
for p in $pids; do wait "$p" || status=1; done
exit $status
