#!/bin/sh
# InstallCompletionBash / InstallCompletionZsh: the generated completion script loads in
# its shell, registers for npu-doctor, and completes subcommand names, nested
# subcommands, options (the global ones too) and option values.
# Usage: completion_test.sh bash|zsh DIR   (DIR holds npu-doctor and _npu-doctor)
set -eu
shell=$1
dir=$2
fail() { echo "FAIL: $*" >&2; exit 1; }

if [ "$shell" = bash ]; then
  command -v bash > /dev/null || { echo "bash not installed"; exit 77; }
  reg=$(bash -c 'source "$1" && complete -p npu-doctor' _ "$dir/npu-doctor") || fail "the script does not load in bash"
  case $reg in *"-F _npu_doctor npu-doctor"*) ;; *) fail "not registered: $reg" ;; esac
  # complete WORD...: the completions offered for the last word.
  complete_words() {
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _npu_doctor; echo "${COMPREPLY[*]}"' _ \
      "$dir/npu-doctor" "$@"
  }
else
  command -v zsh > /dev/null || { echo "zsh not installed (apt-get install zsh)"; exit 77; }
  zsh -n "$dir/_npu-doctor" || fail "zsh syntax"
  head -1 "$dir/_npu-doctor" | grep -qx '#compdef npu-doctor' || fail "no #compdef line"
  # The completion system's functions replaced by ones that print what they are given.
  complete_words() {
    zsh -f -c 'compadd() { [[ $1 == -- ]] && shift; print -r -- "$*"; }
               _describe() { local -a items=("${(@P)2}"); print -r -- "${items[@]%%:*}"; }
               _files() { print -r -- FILES; }
               script=$1; shift; words=("$@"); CURRENT=$#
               source "$script"' _ "$dir/_npu-doctor" "$@"
  }
fi

expect() {  # expect WANTED WORD...
  wanted=$1
  shift
  got=$(complete_words "$@") || fail "completing '$*' failed"
  case " $got " in *" $wanted "*) ;; *) fail "completing '$*': wanted '$wanted' in '$got'" ;; esac
}
expect_not() {
  unwanted=$1
  shift
  got=$(complete_words "$@") || fail "completing '$*' failed"
  case " $got " in *" $unwanted "*) fail "completing '$*': did not want '$unwanted' in '$got'" ;; esac
}

expect diagnose npu-doctor dia
expect completion npu-doctor ''
expect_not analyze npu-doctor ''
expect analyze npu-doctor mem ''
expect ranktable npu-doctor hccl r
expect --format npu-doctor check --for
expect --lang npu-doctor diagnose --la
expect --max-evidence npu-doctor diagnose --max
expect prometheus npu-doctor diagnose -f ''
expect json npu-doctor mem analyze --format j
expect zh npu-doctor diagnose --lang ''
expect numa npu-doctor check --only ''
echo "ok: $shell completion"
