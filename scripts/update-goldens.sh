#!/bin/sh
# Rewrites the expected outputs of the golden tests (tests/golden/README.md) from the built
# npu-doctor, for review with `git diff tests/golden` before committing.
# usage: sh scripts/update-goldens.sh [BUILD_DIR] [COMMAND_OR_CASE_DIR...]
#   sh scripts/update-goldens.sh                      every case, binary in build/
#   sh scripts/update-goldens.sh build tests/golden/check tests/golden/diagnose/example-json
# The same from ctest: NPU_DOCTOR_GOLDEN_UPDATE=1 ctest --test-dir build -R Golden
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd) || exit 2
[ $# -gt 0 ] && shift
binary=$build/src/npu-doctor
[ -x "$binary" ] || { echo "update-goldens: no $binary (build it first: cmake --build $build --target npu-doctor)" >&2; exit 2; }
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
python=$(sed -n 's/^_Python3_EXECUTABLE:INTERNAL=//p' "$build/CMakeCache.txt")
[ -n "$python" ] || python=python3
if [ $# -eq 0 ]; then
  set -- "$top"/tests/golden/*/
fi
# The renderer goldens' knowledge base (tests/golden/tests.cmake builds it with the tests).
[ -f "$build/tests/golden-renderer.snapshot" ] || { echo "update-goldens: no $build/tests/golden-renderer.snapshot (build the tests first)" >&2; exit 2; }
NPU_DOCTOR_GOLDEN_UPDATE=1 NPU_DOCTOR_GOLDEN_CACHE_DIR="$build/tests/golden-cache" \
  NPU_DOCTOR_GOLDEN_RENDERER_KB="$build/tests/golden-renderer.snapshot" \
  "$python" "$top/tests/golden/run_golden.py" "$binary" "$top" "$version" "$@"
