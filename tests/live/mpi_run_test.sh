#!/bin/sh
# Two ranks under a real mpirun, each wrapped by `npu-doctor run`, both writing plogs into
# one folder (as ~/ascend/log/debug/plog is shared on a node). Rank 1 hangs in HCCL and is
# ended by its --kill-on-hang; rank 0 then fails. Each report must be its own rank's: its
# cause, its plog, not the other's.
#   mpi_run_test.sh NPU_DOCTOR MPIRUN FIXTURES
set -eu
npu_doctor=$1 mpirun=$2 fixtures=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
export OMPI_MCA_rmaps_base_oversubscribe=1                         # 2 ranks, a loaded machine
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" # see tests/fleet/mpi_cluster_test.sh
export ASCEND_PROCESS_LOG_PATH="$work/plogs" NO_COLOR=1
fail() { echo "FAIL: $*" >&2; exit 1; }

# The wrapper shells exit 0 so that mpirun does not end the other rank when one fails;
# each rank's status is kept in rc-RANK.
timeout 240 "$mpirun" --oversubscribe -np 2 sh -c \
  '"$0" run --hang-after 3s --kill-on-hang --kill-grace 5s -f json -o "$1/report-$OMPI_COMM_WORLD_RANK.json" \
     -- sh "$2" "$1" "$3" 2>"$1/err-$OMPI_COMM_WORLD_RANK"; echo $? >"$1/rc-$OMPI_COMM_WORLD_RANK"' \
  "$npu_doctor" "$work" "$here/mpi_rank_job.sh" "$fixtures" >"$work/out" || fail "mpirun failed"
for r in 0 1; do echo "--- rank $r stderr"; cat "$work/err-$r"; done >&2
[ "$(cat "$work/rc-0")" = 1 ] || fail "rank 0 exit status $(cat "$work/rc-0"), expected 1 (the job's)"
[ "$(cat "$work/rc-1")" = 143 ] || fail "rank 1 exit status $(cat "$work/rc-1"), expected 143 (ended as hung)"
grep -q "it looks hung" "$work/err-1" || fail "rank 1's hang was not reported"
grep -q "step 42: entering allreduce" "$work/err-1" || fail "rank 1's hang report lacks its last line"
python3 - "$work" <<'PY' || fail "wrong reports"
import json, sys
work = sys.argv[1]
def load(r): return json.load(open(f"{work}/report-{r}.json"))
def rules(rep): return {f["rule"] for f in rep["findings"]}
def plogs(rep): return [i["path"] for i in rep["inputs"] if "/plog-" in i["path"]]
r0, r1 = load(0), load(1)
assert r0["job"]["exit_code"] == 1, r0["job"]
assert r0["root_cause"]["category"] == "aicore_exception", r0["root_cause"]
assert [p[-9:] for p in plogs(r0)] == ["01000.log"], plogs(r0)
assert r1["job"]["hung"] and r1["job"]["killed_on_hang"], r1["job"]
assert "live.job-hung" in rules(r1), rules(r1)
assert any(f["code"] == "EI0002" for f in r1["findings"]), rules(r1)
assert [p[-9:] for p in plogs(r1)] == ["01001.log"], plogs(r1)
assert not any(f["category"] == "aicore_exception" for f in r1["findings"]), rules(r1)
print("rank 0:", r0["root_cause"]["rule"], "| rank 1:", sorted(rules(r1)))
PY
echo "mpi run: ok"
