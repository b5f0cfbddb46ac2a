#!/usr/bin/env bash
# `cidrcheck init` and finding .cidrcheck.yaml, in a scratch repository.
# Usage: config_test.sh CIDRCHECK REPO SCRATCH
set -euo pipefail
cli=$1
repo=$2
scratch=$3
fail() { echo "config_test: $*" >&2; exit 1; }
rm -rf "$scratch"
mkdir -p "$scratch/project/.git" "$scratch/project/nets/eu"
cd "$scratch/project"

# init writes the starter file, refuses to overwrite it, and --force replaces it.
"$cli" init 2>err || fail "init failed: $(cat err)"
[ "$(cat err)" = "cidrcheck: wrote .cidrcheck.yaml" ] || fail "init said: $(cat err)"
cmp -s .cidrcheck.yaml <("$cli" init --force /dev/stdout 2>/dev/null) || fail "the file is not the starter file"
echo "# edited" >>.cidrcheck.yaml
if "$cli" init 2>err; then fail "init replaced an existing file"; fi
grep -q "the file exists" err || fail "unexpected message: $(cat err)"
tail -1 .cidrcheck.yaml | grep -q edited || fail "the refused init changed the file"
"$cli" init --force 2>/dev/null || fail "init --force failed"
tail -1 .cidrcheck.yaml | grep -qv edited || fail "init --force did not replace the file"

# The starter file's inputs, once uncommented, are what a bare `cidrcheck check` reads, from any subdirectory.
cp "$repo/data/examples/kops-tailnet.yaml" nets/fleet.yaml
sed -i 's|^# inputs: \[fleet.yaml\]|inputs: [nets/fleet.yaml]|' .cidrcheck.yaml
set +e
out=$(cd nets/eu && "$cli" check --format json)
status=$?
set -e
[ "$status" -eq 1 ] || fail "check from a subdirectory: exit $status"
grep -q '"files": \[' <<<"$out" && grep -q '"../../nets/fleet.yaml"' <<<"$out" || fail "inputs relative to the file: $out"

# Settings apply: fail-on never passes; --fail-on on the command line wins over the file.
sed -i 's/^fail-on: error/fail-on: never/' .cidrcheck.yaml
"$cli" check >/dev/null || fail "fail-on: never from the file should pass"
if "$cli" check --fail-on error >/dev/null; then fail "--fail-on error should win over the file"; fi
# --no-config ignores the file (and so has no inputs).
if "$cli" check --no-config 2>err; then fail "--no-config should leave no inputs"; fi
grep -q "no fleet files" err || fail "unexpected message: $(cat err)"
# CIDRCHECK_CONFIG names a file anywhere, read as --config reads it; --config and --no-config win over it.
mkdir -p ../elsewhere
sed 's|^inputs: \[nets/fleet.yaml\]|inputs: [../project/nets/fleet.yaml]|; s/^fail-on: never/fail-on: error/' \
  .cidrcheck.yaml >../elsewhere/ci.yaml
grep -q "^fail-on: error" ../elsewhere/ci.yaml || fail "the test's configuration did not change"
if CIDRCHECK_CONFIG=../elsewhere/ci.yaml "$cli" check >/dev/null; then fail "CIDRCHECK_CONFIG was not read"; fi
CIDRCHECK_CONFIG=../elsewhere/ci.yaml "$cli" check --config .cidrcheck.yaml >/dev/null ||
  fail "--config should win over CIDRCHECK_CONFIG"
if CIDRCHECK_CONFIG=../elsewhere/ci.yaml "$cli" check --no-config 2>err; then fail "--no-config should read no file"; fi
grep -q "no fleet files" err || fail "unexpected message: $(cat err)"
CIDRCHECK_CONFIG= "$cli" check >/dev/null || fail "an empty CIDRCHECK_CONFIG should be as unset"
set +e
CIDRCHECK_CONFIG=missing.yaml "$cli" check 2>err
status=$?
set -e
[ "$status" -eq 2 ] || fail "a CIDRCHECK_CONFIG that names no file should exit 2, got $status"
grep -q "^cidrcheck: error: CIDRCHECK_CONFIG is 'missing.yaml', which is no readable file" err ||
  fail "unexpected message: $(cat err)"
# A file above the repository root does not apply.
mv .cidrcheck.yaml ../.cidrcheck.yaml
if "$cli" check 2>err; then fail "a configuration above the repository root was used"; fi
grep -q "no fleet files" err || fail "unexpected message: $(cat err)"
# A broken configuration is an input error with its position.
printf 'fail-on: sometimes\n' >.cidrcheck.yml
set +e
"$cli" check nets/fleet.yaml 2>err
status=$?
set -e
[ "$status" -eq 2 ] || fail "a bad configuration should exit 2, got $status"
grep -q "^.cidrcheck.yml:1:10: error: fail-on is error, warning, note or never, not 'sometimes'" err ||
  fail "unexpected message: $(cat err)"
echo "config_test: ok"
