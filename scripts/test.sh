#!/bin/sh
# Builds npu-doctor with warnings as errors and runs the whole test suite, then the
# hardening run (scripts/hardening.sh, docs/hardening.md): the suite again under
# ASan+UBSan, a 30 s smoke run of every fuzz harness, the threaded scanner under TSan.
# This is the README's test command and what CI runs (.ci/run).
# NPU_DOCTOR_HARDENING=0 leaves out the hardening run (a quicker local check; CI never sets it).
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
# Unity build of the library (batches of 8 .cpp files, as the sanitizer presets do; the tests
# stay one file per unit), which about halves the library's compile time; the whole tree took
# 14 minutes from a fresh clone on 2 cores (docs/hardening.md, "Cost").
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPU_DOCTOR_WERROR=ON -DCMAKE_UNITY_BUILD=ON
cmake --build build -j"$jobs"
# The unity build hides a file that forgets an include behind its neighbours; each file is
# compiled once more on its own, syntax only (about 4 minutes on 2 cores; docs/hardening.md, "Cost").
python3 scripts/check-includes.py build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
if [ "${NPU_DOCTOR_HARDENING:-1}" != 0 ]; then
  sh scripts/hardening.sh
fi
