#!/bin/sh
# The hardening run that scripts/test.sh (so CI) does after the normal build and tests
# (docs/hardening.md):
#  1. the ASan+UBSan tree (preset `asan`, clang 14; the fuzz harnesses are part of it),
#  2. the whole test suite in it,
#  3. every fuzz harness for FUZZ_SECONDS (default 15) each, two at a time, seeded with the
#     corpora the long campaigns kept (fuzz/corpus/),
#  4. the TSan tree (preset `tsan`: the core library and the threaded-scanner tests) and its tests.
# Any sanitizer report, test failure or fuzz finding fails the run. Uses ccache when it is
# installed. Environment: FUZZ_SECONDS, JOBS (default: nproc), HARDENING_SKIP=fuzz,tsan...
set -eu
cd "$(dirname "$0")/.."
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
fuzz_seconds=${FUZZ_SECONDS:-15}
skip=${HARDENING_SKIP:-}
launcher=""
if command -v ccache >/dev/null 2>&1; then
  launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache"
fi
# The plain tree's kbc compiles the knowledge base for the sanitizer trees (src/CMakeLists.txt,
# NPU_DOCTOR_HOST_KBC): the same snapshot, without minutes of the catalogue under a sanitizer.
host_kbc=""
if [ -x build/src/npu-doctor-kbc ]; then
  host_kbc="-DNPU_DOCTOR_HOST_KBC=$(pwd)/build/src/npu-doctor-kbc"
fi
start=$(date +%s)
step() { echo "== hardening: $* ($(( $(date +%s) - start ))s)"; }

step "ASan+UBSan build (build-fuzz)"
# shellcheck disable=SC2086
cmake --preset asan $launcher $host_kbc >/dev/null
cmake --build build-fuzz -j"$jobs"

step "test suite under ASan+UBSan"
ctest --preset asan -j"$jobs"

case ",$skip," in *,fuzz,*) ;; *)
  step "fuzz harnesses, ${fuzz_seconds}s each"
  # A fresh corpus each CI run (seeded from the fixtures): the run must not depend on history.
  rm -rf build-fuzz/fuzz-run
  # A fixed seed: the same mutations each run, so CI does not turn red by luck of the draw
  # (the long campaign, docs/hardening.md, uses random seeds).
  FUZZ_SEED=${FUZZ_SEED:-1} sh fuzz/run_fuzzers.sh build-fuzz build-fuzz/fuzz-run "$fuzz_seconds" 2
esac

case ",$skip," in *,tsan,*) ;; *)
  step "TSan build (build-tsan)"
  # shellcheck disable=SC2086
  cmake --preset tsan $launcher $host_kbc >/dev/null
  cmake --build --preset tsan -j"$jobs"
  step "threaded-scanner tests under TSan"
  ctest --preset tsan -j"$jobs"
esac

step "done"
