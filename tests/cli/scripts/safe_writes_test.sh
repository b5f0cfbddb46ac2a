#!/usr/bin/env bash
# Every file cidrcheck writes is written safely: for each command and option
# that writes one, a write that fails (a full disk, simulated with `ulimit -f`
# and SIGXFSZ ignored, so that write(2) fails with EFBIG) exits 2 and leaves the
# old file intact; no temporary file is left behind, failed or not; a replaced
# file keeps its mode; the input is refused as the output and stays unchanged.
# Permission bits cannot simulate failure here: the tests may run as root.
# Usage: safe_writes_test.sh CIDRCHECK REPO SCRATCH
set -euo pipefail
cli=$(realpath "$1")
repo=$2
scratch=$3
rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch"
failures=0
fail() {
  echo "safe_writes_test: $*" >&2
  failures=$((failures + 1))
}

# A fleet whose every output is larger than the 1 KiB file size limit below.
cp "$repo/data/examples/platform-fleet.yaml" fleet.yaml
cp "$repo/tests/fixtures/import/terraform/terraform.tfstate" state.json
"$cli" check --format json=old.json fleet.yaml >/dev/null 2>&1 || true
cp fleet.yaml new.yaml
sed -i '0,/10\./s/10\./11./' new.yaml   # one range renumbered, for diff
inputs_sum=$(cat fleet.yaml new.yaml state.json old.json | md5sum)

# Each writer: a name and the command line, with OUT where the file goes.
writers=(
  "check-format|check --format json=OUT fleet.yaml"
  "check-sarif|check --format text --format sarif=OUT fleet.yaml"
  "check-baseline|check --write-baseline OUT fleet.yaml"
  "diff-format|diff --format sarif=OUT fleet.yaml new.yaml"
  "plan-output|plan -o OUT fleet.yaml"
  "plan-yaml|plan --format yaml -o OUT fleet.yaml"
  "import-output|import terraform state.json -o OUT"
  "map-output|map -o OUT fleet.yaml"
  "capacity-output|capacity --format json -o OUT fleet.yaml"
  "init|init --force OUT"
)

# run_writer COMMAND OUT [FSIZE]: runs the command with OUT substituted, under a
# file size limit of FSIZE KiB if given; prints nothing; returns its exit status.
run_writer() {
  local words=${1//OUT/$2} fsize=${3:-}
  # shellcheck disable=SC2086 # the command's words
  (
    if [ -n "$fsize" ]; then
      ulimit -f "$fsize"
      trap '' XFSZ
    fi
    exec "$cli" $words
  ) >/dev/null 2>err
}

# Any file but the known ones is a temporary file left behind.
no_temporaries() {
  local left
  left=$(find . -mindepth 1 -maxdepth 1 ! -name '*.yaml' ! -name '*.json' ! -name '*.out' ! -name err ! -name stamp)
  [ -z "$left" ] || fail "$1: left files behind: $left"
}

for writer in "${writers[@]}"; do
  name=${writer%%|*}
  command=${writer#*|}
  out=$name.out

  # A new file: written in full (exit 0 or 1: findings are fine).
  status=0
  run_writer "$command" "$out" || status=$?
  [ "$status" -le 1 ] && [ -s "$out" ] || fail "$name: first write exited $status: $(cat err)"
  size=$(stat -c %s "$out")
  [ "$size" -gt 1024 ] || fail "$name: output of $size bytes is too small for the full-disk test"
  no_temporaries "$name"

  # A replaced file keeps its mode.
  echo "old contents" >"$out"
  chmod 0640 "$out"
  status=0
  run_writer "$command" "$out" || status=$?
  [ "$status" -le 1 ] || fail "$name: replacing exited $status: $(cat err)"
  [ "$(stat -c %a "$out")" = 640 ] || fail "$name: replaced file has mode $(stat -c %a "$out"), not 640"
  [ "$(stat -c %s "$out")" -eq "$size" ] || fail "$name: replaced file is not the new output"

  # A full disk: exit 2, the old file intact, no temporary file left.
  echo "old contents" >"$out"
  status=0
  run_writer "$command" "$out" 1 || status=$?
  [ "$status" -eq 2 ] || fail "$name: a failed write exited $status, not 2: $(cat err)"
  grep -q "$out" err || fail "$name: the message does not name the file: $(cat err)"
  [ "$(cat "$out")" = "old contents" ] || fail "$name: a failed write changed the old file"
  no_temporaries "$name (failed write)"

  # The input as the output: refused, exit 2, input unchanged.
  if [[ $command == *fleet.yaml* ]]; then
    status=0
    run_writer "$command" fleet.yaml || status=$?
    [ "$status" -eq 2 ] || fail "$name: writing over the input exited $status, not 2"
  fi
done

# import refuses its own inputs as output too.
status=0
run_writer "import terraform state.json -o OUT" state.json || status=$?
[ "$status" -eq 2 ] || fail "import: writing over the input exited $status, not 2"
[ "$(cat fleet.yaml new.yaml state.json old.json | md5sum)" = "$inputs_sum" ] || fail "an input file was modified"

# Issue 28, item 8: a plan --format yaml that cannot rewrite a construct of the fleet file (a range key
# written as an explicit key) exits 2 at the construct before writing anything: no file, no temporary.
cat >explicit.yaml <<'EOF'
x-net: &net 10.1.0.0/16
clusters:
  - name: a
    distribution: kubeadm
    ? network
    : *net
  - name: b
    distribution: kubeadm
    network: *net
connections:
  - [a, b]
plan:
  pin: [b]
EOF
status=0
run_writer "plan --format yaml -o OUT explicit.yaml" planned.yaml || status=$?
[ "$status" -eq 2 ] || fail "plan-yaml of an explicit key: exit $status, not 2: $(cat err)"
grep -q "^explicit.yaml:5:14: error: cannot rewrite the key network" err ||
  fail "plan-yaml of an explicit key: not an error at the key: $(cat err)"
[ ! -e planned.yaml ] || fail "plan-yaml of an explicit key wrote planned.yaml"
no_temporaries "plan-yaml of an explicit key"

if [ "$failures" -ne 0 ]; then
  echo "safe_writes_test: $failures failures" >&2
  exit 1
fi
echo "safe_writes_test: ${#writers[@]} writers write safely"
