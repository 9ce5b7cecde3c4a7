#!/bin/sh
# One rank of a two-rank job, run by `npu-doctor run` under mpirun (mpi_run_test.sh). Both
# write their plog into the same folder, named by their pid as CANN names it. Rank 1 waits
# in an HCCL collective and hangs until it is ended; rank 0 trains on (printing progress)
# until then, and fails with an AI Core exception.
#   mpi_rank_job.sh WORK FIXTURES
set -u
work=$1 fixtures=$2 rank=${OMPI_COMM_WORLD_RANK:?not under mpirun}
plog=$ASCEND_PROCESS_LOG_PATH/debug/plog
mkdir -p "$plog"
deadline=$(($(date +%s) + 120))
if [ "$rank" = 1 ]; then
  cp "$fixtures/hccl-wait-plog.log" "$plog/plog-$$_20250302101401001.log"
  echo "[rank1] step 42: entering allreduce"
  trap 'touch "$work/rank1-ended"; exit 143' TERM
  sleep 600 &
  wait $!
  exit 0
fi
cp "$fixtures/aicore-plog.log" "$plog/plog-$$_20250302101401000.log"
while [ ! -e "$work/rank1-ended" ]; do
  [ "$(date +%s)" -lt "$deadline" ] || exit 99
  echo "[rank0] step 42: waiting for the allreduce"
  sleep 0.2
done
cat "$fixtures/train-stderr.log" >&2
exit 1
