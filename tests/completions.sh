#!/bin/bash
# The completion scripts of `lance-cli completions SHELL` (CTest entries completions_*):
#   tests/completions.sh LANCE_CLI syntax bash|zsh|fish   the script passes SHELL -n
#   tests/completions.sh LANCE_CLI complete               bash completes commands, option values
#                                                         and every option of every command's --help
# A missing zsh or fish skips (77), and fails under CI=true (tests/missing_component.sh).
set -u
. "$(dirname "$0")/missing_component.sh"
bin=$1 mode=$2
fail() { echo "FAILED: $*" >&2; exit 1; }

if [ "$mode" = syntax ]; then
  shell=$3
  command -v "$shell" >/dev/null 2>&1 || missing_component "$shell (Debian package $shell)"
  script=$(mktemp)
  trap 'rm -f "$script"' EXIT
  "$bin" completions "$shell" > "$script" || fail "$bin completions $shell: exit $?"
  [ -s "$script" ] || fail "$bin completions $shell printed nothing"
  "$shell" -n "$script" || fail "$shell -n rejects the script of $bin completions $shell"
  echo "$shell -n: ok ($(wc -l < "$script") lines)"
  exit 0
fi

# complete: the candidates bash offers for the words "$@" (the last one is being completed).
source <("$bin" completions bash) || fail "sourcing the bash script failed"
candidates() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _lance_cli
  echo "${COMPREPLY[*]}"
}
expect() {  # expect WANTED WORDS...: the candidates are exactly WANTED
  local want=$1
  shift
  local got
  got=$(candidates "$@")
  [ "$got" = "$want" ] || fail "completing '$*': got '$got', want '$want'"
}
offers() {  # offers WORD WORDS...: WORD is among the candidates
  local want=$1
  shift
  [[ " $(candidates "$@") " == *" $want "* ]] || fail "completing '$*' does not offer '$want' (got '$(candidates "$@")')"
}
offers scan lance-cli sc
offers schema lance-cli sc
expect scan lance-cli sca
expect "bash zsh fish" lance-cli completions ""
# -f's values are the set --help shows: -f,--format TEXT:{csv,...}
formats=$("$bin" scan --help | sed -n 's/.*-f,--format TEXT:{\([^}]*\)}.*/\1/p' | tr , ' ')
[ -n "$formats" ] || fail "scan --help shows no set of formats"
expect "$formats" lance-cli scan -f ""
expect "$formats" lance-cli scan data/sample/products.lance --format ""
expect "$formats" lance-cli scan --format = ""
expect "json jsonl" lance-cli -v scan -f js
for sub in meta schema pages versions; do offers "$sub" lance-cli inspect ""; done
expect "data/sample/products.lance" lance-cli scan data/sample/products.l
expect "data/sample/products.lance" lance-cli inspect pages data/sample/products.l
expect "auto always never" lance-cli scan x --color ""

# Every command --help lists (and its subcommands), and every option its --help shows.
commands=$("$bin" --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[ -n "$commands" ] || fail "lance-cli --help lists no commands"
checked=0
for cmd in $commands $("$bin" inspect --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NR > 1 && NF { print "inspect:" $1 }'); do
  words=${cmd//:/ }
  offered=" $(candidates lance-cli $words -) "
  # Option lines of --help: "  -c,--columns TEXT ...", "  --no-header"; names up to the first space.
  for name in $("$bin" $words --help | sed -n '/^Options:/,/^$/p' | grep -E '^  -' | awk '{ print $1 }' | tr , ' '); do
    name=${name%%\{*}  # --stats{text}
    name=${name%%=*}
    [[ $offered == *" $name "* ]] || fail "lance-cli $words -<TAB> does not offer $name (offered:$offered)"
    checked=$((checked + 1))
  done
done
[ "$checked" -gt 50 ] || fail "only $checked options found in the --help texts"
echo "bash completion: ok ($checked options of $(echo $commands | wc -w) commands)"
