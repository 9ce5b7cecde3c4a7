#!/bin/sh
# StartupLibraries: the npu-doctor binary loads no shared library it never uses. libxml2 and
# ICU came in with libarchive's XAR writer, libstdc++.so with ICU; loading them cost 3.5 ms
# of `explain`'s 20 ms (src/core/archive_format_error.cpp keeps them out).
# Usage: startup_libraries_test.sh NPU_DOCTOR_BINARY
set -eu
bin=$1
needed=$(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
echo "needed:" $needed
for lib in $needed; do
  case $lib in
    libxml2.so*|libicu*|libstdc++.so*) echo "FAIL: $bin needs $lib" >&2; exit 1 ;;
  esac
done
