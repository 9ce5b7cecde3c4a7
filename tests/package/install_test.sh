#!/bin/sh
# InstallLayout: `cmake --install` into a staging tree (DESTDIR, prefix /usr) lays out the
# binary, a man page per command (generated from its --help), bash and zsh completions,
# the documentation and the site knowledge-base directory; the installed binary runs.
# Usage: install_test.sh BUILD_DIR SYSTEM_KB_DIR
set -eu
build=$1
kbdir=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT

DESTDIR="$dest" cmake --install "$build" --prefix /usr > "$dest/install.log" 2>&1 || { cat "$dest/install.log"; fail "cmake --install"; }
root=$dest/usr
bin=$root/bin/npu-doctor
[ -x "$bin" ] || fail "no $bin"
"$bin" --version | head -1 | grep -q '^npu-doctor [0-9]' || fail "installed binary does not run"
[ -d "$dest$kbdir" ] || fail "no site knowledge-base directory $kbdir"

# One page per command, named git-style, each from that command's own --help.
"$bin" completion --commands > "$dest/commands"
[ "$(wc -l < "$dest/commands")" -ge 15 ] || fail "too few commands listed"
cut -f1 "$dest/commands" | while read -r path; do
  name=npu-doctor${path:+-$(echo "$path" | tr ' ' '-')}
  page=$root/share/man/man1/$name.1
  [ -s "$page" ] || fail "no man page $page"
  title=$(echo "$name" | tr 'a-z' 'A-Z')
  grep -q "^\.TH \"*$title\"* " "$page" || fail "$page: title is not $title"
done
grep -q 'prometheus' "$root/share/man/man1/npu-doctor-diagnose.1" || fail "diagnose page lacks the --format values"
grep -q 'analyze' "$root/share/man/man1/npu-doctor-mem.1" || fail "mem page lacks its subcommands"
if command -v man > /dev/null; then
  MANPAGER=cat MANWIDTH=80 man -l "$root/share/man/man1/npu-doctor-check.1" 2> "$dest/man.err" | grep -q -- '--root' ||
    fail "man cannot render npu-doctor-check.1: $(cat "$dest/man.err")"
fi

[ -s "$root/share/bash-completion/completions/npu-doctor" ] || fail "no bash completion"
[ -s "$root/share/zsh/vendor-completions/_npu-doctor" ] || fail "no zsh completion"
for f in README.md ARCHITECTURE.md docs/prometheus.md docs/install.md docs/cli.md docs/schemas/diagnosis-v1.schema.json; do
  [ -s "$root/share/doc/npu-doctor/$f" ] || fail "no $f in share/doc/npu-doctor"
done
[ -s "$root/share/npu-doctor/python/npu_doctor_mem.py" ] || fail "no memory sample writer"
unit=$root/lib/systemd/system/npu-doctor-watch.service
[ -s "$unit" ] || fail "no systemd unit for watch"
grep -q '^ExecStart=.*npu-doctor watch' "$unit" || fail "the unit does not run npu-doctor watch"
[ -s "$root/share/doc/npu-doctor/deploy/npu-doctor-watch.yaml" ] || fail "no DaemonSet manifest"
if command -v systemd-analyze > /dev/null; then
  # The unit as systemd reads it (the man page it names is in the staging tree, not in MANPATH).
  sed '/^Documentation=/d' "$unit" > "$dest/npu-doctor-watch.service"
  PATH="$root/bin:$PATH" systemd-analyze verify "$dest/npu-doctor-watch.service" 2> "$dest/unit.err" ||
    { cat "$dest/unit.err"; fail "systemd-analyze verify rejects the unit"; }
fi
echo "ok: install layout"
