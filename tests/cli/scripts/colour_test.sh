#!/usr/bin/env bash
# Colour on a terminal: auto colours a TTY unless NO_COLOR is set and not
# empty or TERM is dumb; --color always|never override both; machine formats
# and report files are never coloured. The terminal is script(1)'s pseudo-TTY.
# Usage: colour_test.sh CIDRCHECK REPO SCRATCH
set -euo pipefail
cli=$1
repo=$2
scratch=$3
fail() { echo "colour_test: $*" >&2; exit 1; }
if ! command -v script >/dev/null; then
  echo "SKIP: script(1) is not installed, so no terminal can be faked"
  exit 77
fi
cd "$repo"
fleet=data/examples/kops-tailnet.yaml
esc=$'\e['
on_tty() { script -qec "$*" /dev/null </dev/null; }
coloured() { [[ $1 == *"$esc"* ]]; }

coloured "$(TERM=xterm on_tty "$cli" $fleet)" || fail "a terminal gets colour"
coloured "$(TERM=xterm NO_COLOR= on_tty "$cli" $fleet)" || fail "an empty NO_COLOR changes nothing"
coloured "$(TERM=xterm NO_COLOR=1 on_tty "$cli" $fleet)" && fail "NO_COLOR=1 turns colour off"
coloured "$(TERM=dumb on_tty "$cli" $fleet)" && fail "a dumb terminal gets no colour"
coloured "$(TERM=xterm on_tty "$cli" $fleet --color never)" && fail "--color never"
coloured "$(TERM=xterm NO_COLOR=1 on_tty "$cli" $fleet --color always)" || fail "--color always wins over NO_COLOR"
coloured "$("$cli" $fleet || true)" && fail "a pipe gets no colour"
coloured "$("$cli" $fleet --color always || true)" || fail "--color always colours a pipe"
mkdir -p "$scratch"
for format in json sarif github junit gitlab markdown; do
  coloured "$(TERM=xterm on_tty "$cli" $fleet --color always --format $format)" && fail "$format is coloured"
done
TERM=xterm on_tty "$cli" $fleet --color always --format text="$scratch/report.txt" >/dev/null || true
coloured "$(cat "$scratch/report.txt")" && fail "a text report file is coloured"
echo "colour_test: ok"
