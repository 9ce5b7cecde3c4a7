#!/usr/bin/env bash
# scale.sh: the issue-8 targets that compare.sh does not show.
#   1. -j scaling: N copies of one log, -j 1 .. -j nproc (wall time, speed-up)
#   2. memory at 10 GB: the same 1 GiB log streamed 10 times through stdin (peak RSS)
#   3. start-up: `npu-doctor explain CODE` (knowledge base included), mean over many runs
#   4. a 4,096-rank synthetic cluster (tests/cluster/gen_cluster.py): diagnose, then merge
#      of per-node summaries (what node 0 does once MPI has gathered them)
#   5. peak RSS of every command on large inputs and many inputs (the 64 MiB goal of
#      issue 21): one table, `/usr/bin/time` per run
#
#   bench/scale.sh [SECTION...]          sections: jobs memory explain cluster rss (default all)
#
# Environment: NPU_DOCTOR (binary), NPU_DOCTOR_BENCH_LOG (a large log to reuse, e.g. the
# 1 GiB one compare.sh generated; else a 256 MiB one is generated), MEM_REPEAT (default 10),
# RSS_FILES (inputs of the many-inputs runs, default 100000), RSS_DIR (keep the rss inputs
# there and reuse them in later runs, e.g. to measure two builds on the same inputs),
# RSS_ONLY (an extended regex: only the rss rows whose command matches, e.g. 'diagnose -f json|mem';
# `merge` reads the summary of the `cluster` row and `diagnose BUNDLE` the bundle of the
# second `bundle` row, so select those with them).
# Run as `sh bench/...` too: the rest is bash.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
die() { echo "scale.sh: $*" >&2; exit 2; }
npu=${NPU_DOCTOR:-}
if [[ -z $npu ]]; then
  for c in "$repo/build-bench/src/npu-doctor" "$repo/build/src/npu-doctor" "$(command -v npu-doctor || true)"; do
    if [[ -n $c && -x $c ]]; then npu=$c; break; fi
  done
fi
[[ -n $npu && -x $npu ]] || die "npu-doctor binary not found; build it or set NPU_DOCTOR"
[[ -x /usr/bin/time ]] || die "/usr/bin/time is missing: apt-get install -y time"
sections=("$@")
((${#sections[@]})) || sections=(jobs memory explain cluster rss)
work=$(mktemp -d "${TMPDIR:-/tmp}/npu-doctor-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2-$1:.3f}')"; }
log=${NPU_DOCTOR_BENCH_LOG:-}
need_log() {
  if [[ -z $log || ! -s $log ]]; then
    log=$work/bench.log
    python3 "$here/gen_log.py" 256 "$log" --seed 7 >&2
  fi
}
echo "machine: $(nproc) cores, $(uname -m), $(lscpu | sed -n 's/^Model name: *//p' | head -1); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "npu-doctor: $npu"

for s in "${sections[@]}"; do
  case $s in
  jobs)
    need_log
    # 8 files of 64 MiB: enough files for every thread, small enough to stay in the page cache.
    mkdir -p "$work/many"
    head -c $((64 << 20)) "$log" >"$work/one.log"
    for i in 1 2 3 4 5 6 7 8; do cp "$work/one.log" "$work/many/rank_$i.log"; done
    cat "$work/many"/* >/dev/null
    echo; echo "## -j scaling: 8 files x 64 MiB"
    echo "| -j | seconds | speed-up |"; echo "|---:|---:|---:|"
    base=
    for j in $(seq 1 "$(nproc)"); do
      best=
      for r in 1 2 3; do
        a=$(now); "$npu" diagnose -j "$j" -f json "$work/many" >/dev/null || true; b=$(now)
        t=$(elapsed "$a" "$b")
        best=$(python3 -c "print(min(float('$t'), float('${best:-1e9}')))")
      done
      base=${base:-$best}
      echo "| $j | $best | $(python3 -c "print(f'{$base/$best:.2f}')") |"
    done
    ;;
  memory)
    need_log
    repeat=${MEM_REPEAT:-10}
    total=$(python3 -c "print(f'{$(stat -c %s "$log") * $repeat / 2**30:.1f}')")
    echo; echo "## memory: ${total} GiB through stdin ($repeat x $(basename "$log"))"
    a=$(now)
    (for ((i = 0; i < repeat; i++)); do cat "$log"; done) |
      /usr/bin/time -f '%M' -o "$work/rss" "$npu" diagnose -j 1 -f json - >"$work/mem.json" || true
    b=$(now)
    echo "peak RSS: $(($(tail -n 1 "$work/rss") / 1024)) MiB; $(elapsed "$a" "$b") s; $(python3 -c "import json;r=json.load(open('$work/mem.json'));print(sum(i['lines'] for i in r['inputs']), 'lines')")"
    ;;
  explain)
    echo; echo "## start-up: explain"
    for code in 507035 EI0002 memory.device-oom; do
      if command -v hyperfine >/dev/null; then
        hyperfine -N -i --warmup 5 --runs 100 --style none --export-json "$work/e.json" "$npu explain $code" >/dev/null 2>&1
        python3 -c "import json;r=json.load(open('$work/e.json'))['results'][0];print(f\"explain $code: mean {r['mean']*1000:.1f} ms, median {r['median']*1000:.1f} ms, user {r['user']*1000:.1f} ms, system {r['system']*1000:.1f} ms\")"
      else
        a=$(now); for i in $(seq 50); do "$npu" explain "$code" >/dev/null; done; b=$(now)
        echo "explain $code: $(python3 -c "print(f'{($b-$a)/50*1000:.1f}')") ms mean"
      fi
    done
    ;;
  cluster)
    echo; echo "## 4,096-rank cluster (8 ranks per node, 512 nodes)"
    a=$(now)
    python3 "$repo/tests/cluster/gen_cluster.py" "$work/job" --ranks 4096 --fault aicore --seed 1 --steps 40 >/dev/null
    b=$(now); echo "generated in $(elapsed "$a" "$b") s: $(du -sh "$work/job" | cut -f1)"
    cat "$work/job/truth.json"; echo
    a=$(now)
    /usr/bin/time -f '%M' -o "$work/rss" "$npu" diagnose -f json "$work/job" >"$work/cluster.json" || true
    b=$(now)
    echo "diagnose (scan + verdict): $(elapsed "$a" "$b") s, peak RSS $(($(tail -n 1 "$work/rss") / 1024)) MiB"
    python3 -c "import json;c=json.load(open('$work/cluster.json'))['cluster'];print('verdict: rank', c['culprit']['rank'], c['basis'], c['confidence'])"
    mkdir -p "$work/summaries"
    a=$(now)
    for d in "$work/job"/node-*; do
      n=${d##*/}
      "$npu" cluster --logs "$d" --hostname "$n" -j 1 --summary-out "$work/summaries/$n.json" -o /dev/null 2>/dev/null || true
    done
    b=$(now); echo "per-node summaries (512 runs, one after another): $(elapsed "$a" "$b") s, $(du -sh "$work/summaries" | cut -f1)"
    a=$(now)
    /usr/bin/time -f '%M' -o "$work/rss" "$npu" merge -f json "$work/summaries"/*.json >"$work/merged.json" 2>/dev/null || true
    b=$(now)
    echo "merge (the verdict from gathered summaries): $(elapsed "$a" "$b") s, peak RSS $(($(tail -n 1 "$work/rss") / 1024)) MiB"
    python3 -c "import json;c=json.load(open('$work/merged.json'))['cluster'];print('verdict: rank', c['culprit']['rank'], c['basis'], c['confidence'])"
    ;;
  rss)
    need_log
    files=${RSS_FILES:-100000}
    echo; echo "## peak RSS per command (goal: under 64 MiB at any input size and count)"
    r=${RSS_DIR:-$work/rss}
    if [[ -z ${RSS_DIR:-} || ! -f $r/.complete-$files ]]; then
      [[ ! -e $r || -z $(ls -A "$r") ]] || die "RSS_DIR $r holds something else than $files inputs; give an empty or new directory"
      echo "generating inputs in $r ..." >&2
      python3 "$here/rss_inputs.py" "$r" --files "$files" >&2
      touch "$r/.complete-$files"
    fi
    big=$log
    size_of() { du -sh --apparent-size "$1" 2>/dev/null | cut -f1; }  # empty for inputs RSS_DIR lacks
    echo "| command | input | peak RSS (MiB) | seconds | exit |"
    echo "|---|---|---:|---:|---:|"
    # rss LABEL INPUT-DESCRIPTION COMMAND...: one run, stdout discarded.
    rss() {
      local label=$1 what=$2; shift 2
      local a b rc=0
      [[ -z ${RSS_ONLY:-} || $label =~ $RSS_ONLY ]] || return 0
      a=$(now)
      /usr/bin/time -f '%M' -o "$work/rss.kb" "$@" >/dev/null 2>"$work/rss.err" || rc=$?
      b=$(now)
      echo "| \`$label\` | $what | $(($(tail -n 1 "$work/rss.kb") / 1024)) | $(elapsed "$a" "$b") | $rc |"
    }
    rss "diagnose -f json" "$files files" "$npu" diagnose -f json "$r/many"
    rss "diagnose -f text" "$files files" "$npu" diagnose -f text "$r/many"
    rss "diagnose -f markdown" "$files files" "$npu" diagnose -f markdown "$r/many"
    rss "diagnose -f html" "$files files" "$npu" diagnose -f html "$r/many"
    rss "diagnose -f prometheus" "$files files" "$npu" diagnose -f prometheus "$r/many"
    rss "diagnose -j 1 -f json" "$(size_of "$big") log" "$npu" diagnose -j 1 -f json "$big"
    rss "diagnose -f html" "$(size_of "$big") log" "$npu" diagnose -f html "$big"
    rss "cluster --summary-out" "$files files" "$npu" cluster --logs "$r/many" --summary-out "$work/summary.json" -f json
    rss "merge" "1 summary of $files files" "$npu" merge -f json "$work/summary.json"
    rss "bundle" "$(size_of "$r/secrets/train.log") log, a secret on every line" \
      "$npu" bundle --no-default-logs --logs "$r/secrets" --root "$r/host/root" -o "$work/b1.tar.gz" --timeout 5
    rss "bundle" "$files files" "$npu" bundle --no-default-logs --logs "$r/many" --root "$r/host/root" --max-size 1G \
      -o "$work/b2.tar.gz" --timeout 5
    rss "diagnose BUNDLE" "the bundle of $files files" "$npu" diagnose -f json "$work/b2.tar.gz"
    rss "mem analyze" "$(size_of "$r/mem.jsonl") of samples" "$npu" mem analyze -f json "$r/mem.jsonl"
    rss "mem analyze" "$(size_of "$big") log" "$npu" mem analyze -f json "$big"
    rss "profile" "$(size_of "$r/prof") op_summary" "$npu" profile -f json "$r/prof"
    rss "atc" "$(size_of "$big") log" "$npu" atc -f json "$big"
    rss "hccl test-output" "$(size_of "$r/hccl_test.txt") HCCL Test output" "$npu" hccl test-output -f json "$r/hccl_test.txt"
    rss "hccl env" "$(size_of "$r/env.txt") env dump" "$npu" hccl env -f json "$r/env.txt"
    rss "check --root" "fixture machine" env PATH="$r/host/bin:$PATH" "$npu" check -f json --root "$r/host/root"
    rss "explain" "507035" "$npu" explain 507035
    rss "kb lint" "built-in" "$npu" kb lint
    ;;
  *) die "unknown section $s (jobs memory explain cluster rss)" ;;
  esac
done
