#!/usr/bin/env bash
# The man page renders without a groff warning and documents every command
# and option. Usage: man_test.sh CIDRCHECK
set -euo pipefail
cli=$1
fail() { echo "man_test: $*" >&2; exit 1; }
if ! command -v groff >/dev/null; then
  echo "SKIP: groff is not installed; the man page was not rendered"
  exit 77
fi
page=$(mktemp)
trap 'rm -f "$page"' EXIT
"$cli" man >"$page"
warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
[ -z "$warnings" ] || fail "groff warns: $warnings"
# Rendered by groff itself, not man (a minimal Debian has no man-db): -P-cbou
# makes grotty write plain text, without the overstrike bold ("c\bci\bi...") and
# underline that it otherwise emits when SGR is off. Whatever overstrike or SGR
# escape is left is stripped, so the checks below compare plain ASCII text.
text=$(groff -man -Tutf8 -rLL=100n -P-cbou "$page" | sed -e 's/.\x08//g' -e 's/\x1b\[[0-9;]*m//g')
for want in "cidrcheck check" "cidrcheck diff" "cidrcheck set alloc" "cidrcheck explain" "--format" "--baseline" \
            "--write-baseline" "--rev" "--min-severity" "EXIT STATUS" "NO_COLOR" ".cidrcheck.yaml"; do
  # groff may render '-' as a Unicode hyphen or minus; compare with plain ASCII.
  grep -qF -- "$want" <<<"$(sed 's/‐/-/g; s/−/-/g' <<<"$text")" || fail "the page lacks '$want'"
done
# Every option of check's --help is in the page.
for option in $("$cli" check --help | grep -oE -- '--[a-z-]+' | sort -u); do
  grep -qF -- "$option" <<<"$(sed 's/‐/-/g; s/−/-/g' <<<"$text")" || fail "the page lacks check's $option"
done
echo "man_test: ok"
