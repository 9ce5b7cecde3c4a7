#!/bin/sh
# Builds npu-doctor with warnings as errors and runs the whole test suite.
# This is the README's test command and what CI runs (.ci/run).
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPU_DOCTOR_WERROR=ON
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
