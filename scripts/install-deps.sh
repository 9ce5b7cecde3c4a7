#!/bin/sh
# Installs the Debian 12 packages npu-doctor needs to build and test. Run as root (or
# with sudo available). Installs only what is missing, so it is cheap to run again.
set -eu

arch=$(dpkg --print-architecture)
# The multi-pattern engine: Intel Hyperscan on x86-64; Vectorscan (its portable fork)
# elsewhere, e.g. on aarch64 (Kunpeng). Debian 12's Vectorscan 5.4.9 loses matches on
# some x86-64 CPUs (AVX-512), see docs/platform.md; npu-doctor checks its engine at
# start-up either way.
if [ "$arch" = amd64 ]; then
  engine=libhyperscan-dev
else
  engine=libvectorscan-dev
fi

# liblinear-dev: trains the word fallback's model at build time (npu-doctor itself never links it).
# chromium: the HTML reports are checked in a real headless browser by the tests.
# help2man (man pages from --help), dpkg-dev (the .deb's Depends via dpkg-shlibdeps), man-db
# and zsh (the install tests read the pages and run the completions), prometheus (only for
# `promtool check metrics`, which lints the -f prometheus output; 19 MB, ~1 min),
# python3-jsonschema (the golden tests validate every JSON output against docs/schemas),
# python3-yaml (the catalogue scripts and the test of their rules against kb/messages/).
packages="build-essential cmake pkg-config $engine libpcre2-dev libarchive-dev nettle-dev libyaml-cpp-dev
          nlohmann-json3-dev libcli11-dev libfmt-dev liblinear-dev libgtest-dev libgmock-dev libbenchmark-dev python3 python3-jsonschema python3-yaml
          libopenmpi-dev openmpi-bin chromium
          help2man dpkg-dev man-db zsh prometheus"

missing=""
for p in $packages; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
remove=""
# The two engines conflict as packages; on x86-64 prefer Hyperscan.
if [ "$engine" = libhyperscan-dev ] && dpkg-query -W -f='${Status}' libvectorscan5 2>/dev/null | grep -q "install ok installed"; then
  remove="libvectorscan-dev- libvectorscan5-"
fi
$sudo apt-get update
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $missing $remove
