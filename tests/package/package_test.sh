#!/bin/sh
# PackageDeb: cpack builds the .deb; its architecture is this machine's, its Depends come
# from dpkg-shlibdeps, its binaries are stripped; unpacked with `dpkg -x` into a clean
# tree, npu-doctor runs from there (--version, explain).
# Usage: package_test.sh BUILD_DIR VERSION
set -eu
build=$1
version=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v dpkg-deb > /dev/null && command -v dpkg-shlibdeps > /dev/null || { echo "dpkg-dev not installed"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$out" > "$out/cpack.log" 2>&1 || { cat "$out/cpack.log"; fail "cpack"; }
arch=$(dpkg --print-architecture)
deb=$out/npu-doctor_${version}_$arch.deb
[ -f "$deb" ] || { ls "$out"; fail "no $deb"; }
[ "$(dpkg-deb -f "$deb" Architecture)" = "$arch" ] || fail "architecture is not $arch"
[ "$(dpkg-deb -f "$deb" Package)" = npu-doctor ] || fail "package name"
depends=$(dpkg-deb -f "$deb" Depends)
case $depends in *libc6*) ;; *) fail "Depends not from dpkg-shlibdeps: '$depends'" ;; esac
echo "Depends: $depends"
# Every shared library the binary needs is provided by a package it depends on.
dpkg-deb -c "$deb" > "$out/contents"
for path in ./usr/bin/npu-doctor ./etc/npu-doctor/kb.d/ ./usr/share/man/man1/npu-doctor-diagnose.1 \
  ./usr/share/bash-completion/completions/npu-doctor ./usr/share/zsh/vendor-completions/_npu-doctor \
  ./usr/share/doc/npu-doctor/README.md ./usr/lib/systemd/system/npu-doctor-watch.service; do
  grep -q " $path\$" "$out/contents" || fail "$path not in the package"
done

dpkg -x "$deb" "$out/root"
bin=$out/root/usr/bin/npu-doctor
if readelf -S "$bin" | grep -q -e '\.debug_info' -e '\.symtab'; then fail "npu-doctor is not stripped"; fi
for lib in $(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
  # The library this host resolves (by full path: a bare name also matches multilib copies).
  path=$(ldd "$bin" | awk -v l="$lib" '$1 == l { print $3 }')
  [ -n "$path" ] || continue
  pkg=$(dpkg -S "$path" 2> /dev/null | head -1 | cut -d: -f1) || true
  [ -n "$pkg" ] || continue
  case ", $depends" in *", $pkg"*) ;; *) fail "$lib comes from $pkg, which is not in Depends '$depends'" ;; esac
done
[ -x "$out/root/usr/bin/npu-doctor-mpi" ] && case $depends in *openmpi*) ;; *) fail "npu-doctor-mpi without Open MPI in Depends" ;; esac

"$bin" --version > "$out/version" || fail "--version from the unpacked package"
head -1 "$out/version" | grep -qx "npu-doctor $version" || fail "version line: $(head -1 "$out/version")"
grep -q "entries built in" "$out/version" || fail "no knowledge base in --version"
"$bin" explain 507015 > "$out/explain" || fail "explain from the unpacked package"
grep -q "AI Core" "$out/explain" || fail "explain 507015 does not explain"
echo "ok: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"
