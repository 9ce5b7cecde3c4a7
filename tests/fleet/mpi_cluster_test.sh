#!/bin/sh
# npu-doctor cluster under a real mpirun: 4 ranks on this machine, rank k scanning the
# logs of node k of a synthetic 16-rank job. Then the same with one node's log a FIFO
# nobody writes (its scan hangs): the report must still come, naming that node.
#   mpi_cluster_test.sh NPU_DOCTOR MPIRUN GEN_CLUSTER_PY
set -eu
npu_doctor=$1 mpirun=$2 gen=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
export OMPI_MCA_rmaps_base_oversubscribe=1                         # 4 ranks on 2 cores
# Under ASan (the `asan` preset): Open MPI leaks inside MCA components it has already
# dlclose'd by the time LeakSanitizer reports, so the frames cannot be named and no
# suppression can match them (fuzz/lsan.supp). Leak checking is off for these MPI
# processes only; the same cluster code runs with it in the non-MPI cluster tests.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fail() { echo "FAIL: $*" >&2; exit 1; }

python3 "$gen" "$work/job" --ranks 16 --ranks-per-node 4 --fault oom --seed 4 >/dev/null
culprit=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["culprit"])' "$work/job/truth.json")

rc=0
timeout 240 "$mpirun" --oversubscribe -np 4 "$npu_doctor" cluster --logs "$work/job/node-{rank}" \
  --hostname 'node-{rank}' -j 1 -f json -o "$work/report.json" 2>"$work/err" || rc=$?
cat "$work/err" >&2
[ "$rc" = 1 ] || fail "exit status $rc, expected 1 (a root cause)"
grep -q "4 of 4 node(s) scanned (mpi)" "$work/err" || fail "not all four ranks reported over MPI"
python3 - "$work/report.json" "$culprit" <<'PY' || fail "wrong verdict"
import json, sys
r = json.load(open(sys.argv[1]))
c = r["cluster"]
assert c["ranks"] == 16, c["ranks"]
assert c["culprit"]["rank"] == int(sys.argv[2]), (c["culprit"], sys.argv[2])
assert {i["path"].split("/node-")[1][0] for i in r["inputs"]} == set("0123")
print("culprit rank", c["culprit"]["rank"], "found by", c["basis"])
PY

# Node 2's only input is a FIFO without a writer: its scan never ends.
for k in 0 1 3; do ln -s "$work/job/node-$k" "$work/in-$k"; done
mkfifo "$work/in-2"
exec 3<>"$work/in-2"   # a writer that never writes: reading it blocks for good
rc=0
timeout 240 "$mpirun" --oversubscribe -np 4 "$npu_doctor" cluster --logs "$work/in-{rank}" \
  --hostname 'node-{rank}' --node-timeout 3s -j 1 -f json -o "$work/report2.json" 2>"$work/err2" || rc=$?
cat "$work/err2" >&2
[ "$rc" = 1 ] || fail "exit status $rc with a hung node, expected 1"
grep -q "3 of 4 node(s) scanned (mpi)" "$work/err2" || fail "the hung node was not reported as unscanned"
python3 - "$work/report2.json" <<'PY' || fail "the hung node is not a finding"
import json, sys
r = json.load(open(sys.argv[1]))
hung = [f for f in r["findings"] if f["rule"] == "cluster.node-unscanned"]
assert hung and "node-2" in json.dumps(hung[0]), hung
print("hung node reported:", hung[0]["evidence"][0]["text"])
PY
# A broken --expected file: node 0, the only one that reads it, reports a usage error;
# the other ranks still hand in their summaries, so mpirun ends at once with status 2.
printf 'schema: npu-doctor/expected/v1\nexpected:\n  - {rule: x}\n' >"$work/broken.yaml"
rc=0
timeout 240 "$mpirun" --oversubscribe -np 4 "$npu_doctor" cluster --logs "$work/job/node-{rank}" \
  --hostname 'node-{rank}' -j 1 --expected "$work/broken.yaml" -o "$work/report3.txt" 2>"$work/err3" || rc=$?
cat "$work/err3" >&2
[ "$rc" = 2 ] || fail "exit status $rc with a broken --expected file, expected 2"
grep -q "broken.yaml:3: a declaration needs a 'reason'" "$work/err3" || fail "the broken --expected file is not named"
[ ! -s "$work/report3.txt" ] || fail "a report was written although --expected was broken"
echo "mpi cluster: ok"
