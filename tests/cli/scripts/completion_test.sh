#!/usr/bin/env bash
# The completion scripts load in their shells and complete from the commands'
# own options. Usage: completion_test.sh CIDRCHECK bash|zsh|fish
# Exits 77 (skipped) when the shell is not installed.
set -euo pipefail
cli=$1
shell=$2
fail() { echo "completion_test ($shell): $*" >&2; exit 1; }

if ! command -v "$shell" >/dev/null; then
  echo "SKIP: $shell is not installed; its completion script was not checked"
  exit 77
fi
script=$("$cli" completion "$shell")
if [ "$shell" = fish ]; then
  fish --no-execute <<<"$script" || fail "the script does not parse"
else
  "$shell" -n <<<"$script" || fail "the script does not parse"
fi

if [ "$shell" = fish ]; then
  # complete -C completes a command line as the shell would; candidates, one a line, then a tab and a description.
  cd "$(mktemp -d)"
  touch fleet.yaml
  printf '%s\n' "$script" >cidrcheck.fish
  complete_line() { fish --no-config -c "source cidrcheck.fish; complete -C '$1'" | cut -f1; }
  [[ $(complete_line "cidrcheck di") == diff ]] || fail "commands: $(complete_line 'cidrcheck di')"
  [[ $(complete_line "cidrcheck check --format sa") == sarif ]] || fail "format values: $(complete_line 'cidrcheck check --format sa')"
  [[ $(complete_line "cidrcheck check --format ht") == html ]] || fail "format values: html"
  [[ $(complete_line "cidrcheck fleet.yaml --fail-on w") == warning ]] || fail "the default command's options"
  [[ $(complete_line "cidrcheck diff --re") == --rev ]] || fail "diff's options: $(complete_line 'cidrcheck diff --re')"
  [[ $(complete_line "cidrcheck set alloc --leng") == --length ]] || fail "set subcommand options"
  [[ $(complete_line "cidrcheck set me") == merge ]] || fail "set subcommands: $(complete_line 'cidrcheck set me')"
  [[ $(complete_line "cidrcheck explain latent") == latent-overlap ]] || fail "rule names"
  [[ $(complete_line "cidrcheck check fle") == fleet.yaml ]] || fail "file operands: $(complete_line 'cidrcheck check fle')"
  [[ $(complete_line "cidrcheck check --config fle") == fleet.yaml ]] || fail "file values"
  [[ $(complete_line "cidrcheck check aws-v") == aws-vpcs: ]] || fail "KIND: sources: $(complete_line 'cidrcheck check aws-v')"
  [[ -z $(complete_line "cidrcheck check --max-depth ") ]] || fail "no guesses for numbers: $(complete_line 'cidrcheck check --max-depth ')"
  [[ $(complete_line "cidrcheck completion f") == fish ]] || fail "the shells"
  echo "completion_test (fish): ok"
  exit 0
fi

if [ "$shell" = zsh ]; then
  # Loading defines the function (compdef needs compinit, which -f skips).
  zsh -f -c 'compdef() { :; }; source <(print -r -- "$1"); (( $+functions[_cidrcheck] ))' zsh "$script" ||
    fail "loading the script does not define _cidrcheck"
  grep -q "compset -P '(.*aws-vpcs.*):'" <<<"$script" || fail "no KIND: prefixes for sources"
  for option in --format --fail-on --baseline --rev --force; do
    grep -q -- "$option" <<<"$script" || fail "no $option"
  done
  echo "completion_test (zsh): ok"
  exit 0
fi

# bash: complete a few command lines the way readline would.
source <(printf '%s\n' "$script")
complete_line() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _cidrcheck
  printf '%s\n' "${COMPREPLY[@]}"
}
cd "$(mktemp -d)"
touch fleet.yaml
[[ $(complete_line cidrcheck di) == diff ]] || fail "commands: $(complete_line cidrcheck di)"
[[ $(complete_line cidrcheck check --format sa) == sarif ]] || fail "format values"
[[ $(complete_line cidrcheck fleet.yaml --fail-on w) == warning ]] || fail "the default command's options"
[[ $(complete_line cidrcheck diff --re) == --rev ]] || fail "diff's options"
[[ $(complete_line cidrcheck set alloc --leng) == --length ]] || fail "set subcommand options"
[[ $(complete_line cidrcheck set me) == merge ]] || fail "set subcommands"
[[ $(complete_line cidrcheck explain latent) == latent-overlap ]] || fail "rule names"
[[ $(complete_line cidrcheck check fle) == fleet.yaml ]] || fail "file operands"
[[ $(complete_line cidrcheck check --config fle) == fleet.yaml ]] || fail "file values"
# Sources: KIND: prefixes beside files, then (bash splits words at ':') the file after KIND:.
[[ $(complete_line cidrcheck check aws-v) == aws-vpcs: ]] || fail "KIND: for check: $(complete_line cidrcheck check aws-v)"
[[ $(complete_line cidrcheck aws-v) == aws-vpcs: ]] || fail "KIND: for the default command"
[[ $(complete_line cidrcheck diff --rev HEAD terraform-p) == terraform-plan: ]] || fail "KIND: for diff"
[[ $(complete_line cidrcheck check aws-vpcs : fle) == fleet.yaml ]] || fail "the file after KIND:"
[[ -z $(complete_line cidrcheck check --max-depth "") ]] || fail "no guesses for numbers"
echo "completion_test (bash): ok"
