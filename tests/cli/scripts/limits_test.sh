#!/usr/bin/env bash
# Every limit of docs/limits.md, through the command line: an input just over a
# lowered limit is exit 2 with a message naming the limit; the same input with
# the limit raised by its flag (or at its default) is read. Hostile documents
# (an alias bomb, an enormous scalar) hit their limit at the defaults.
# Usage: limits_test.sh CIDRCHECK REPO SCRATCH
set -euo pipefail
cli=$(realpath "$1")
repo=$2
scratch=$3
rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch"
failures=0
fail() {
  echo "limits_test: $*" >&2
  failures=$((failures + 1))
}

# expect_limit LIMIT MESSAGE COMMAND...: exit 2, and stderr holds MESSAGE (which names LIMIT).
expect_limit() {
  local limit=$1 message=$2 status=0
  shift 2
  timeout 120 "$cli" "$@" >out 2>err || status=$?
  if [ "$status" -ne 2 ]; then
    fail "$limit: \`cidrcheck $*\` exited $status, not 2: $(head -c 500 err)"
  elif ! grep -qF -- "$message" err || ! grep -qF -- "$limit" err; then
    fail "$limit: \`cidrcheck $*\` did not say '$message':
$(head -c 500 err)"
  fi
}

# expect_read LIMIT COMMAND...: exit 0 or 1 (findings are fine), and no word of a limit.
expect_read() {
  local limit=$1 status=0
  shift
  timeout 120 "$cli" "$@" >out 2>err || status=$?
  if [ "$status" -gt 1 ] || grep -q "limit" err; then
    fail "$limit raised: \`cidrcheck $*\` exited $status: $(head -c 500 err)"
  fi
}

cat >fleet.yaml <<'EOF'
version: 1
clusters:
  - {name: a, pods: [10.0.0.0/16], services: [10.96.0.0/12]}
  - {name: b, pods: [10.0.0.0/16], services: [10.96.0.0/12]}
  - {name: c, pods: [10.1.0.0/16], services: [10.112.0.0/12]}
connections:
  - [a, b, c]
EOF
size=$(wc -c <fleet.yaml)

# Fleet files: every command that reads them shares these flags.
for command in check plan "map -o map.svg" capacity; do
  # shellcheck disable=SC2086 # the command's words
  expect_limit max-file-bytes "fleet.yaml: error: file is larger than the max-file-bytes limit of 64 bytes" \
    $command --max-file-bytes 64 fleet.yaml
  # shellcheck disable=SC2086
  expect_read max-file-bytes $command --max-file-bytes "$size" fleet.yaml
done
expect_limit max-depth "fleet.yaml:3:5: error: nesting is deeper than the max-depth limit of 2 levels" \
  check --max-depth 2 fleet.yaml
expect_read max-depth check --max-depth 4 fleet.yaml
expect_limit max-nodes "error: the document has more than the max-nodes limit of 10 nodes" check --max-nodes 10 fleet.yaml
expect_read max-nodes check --max-nodes 40 fleet.yaml
expect_limit max-owners "fleet.yaml:5:5: error: more than the max-owners limit of 2 clusters and networks" \
  check --max-owners 2 fleet.yaml
expect_read max-owners check --max-owners 3 fleet.yaml
expect_limit max-ranges "fleet.yaml:4:22: error: more than the max-ranges limit of 2 ranges" check --max-ranges 2 fleet.yaml
[ "$(grep -c "max-ranges" err)" -eq 1 ] || fail "max-ranges: reported more than once: $(cat err)"
expect_read max-ranges check --max-ranges 6 fleet.yaml
expect_limit max-findings "error: the fleet has more than the max-findings limit of 6 findings" \
  check --max-findings 6 fleet.yaml
expect_read max-findings check --max-findings 7 fleet.yaml
expect_limit max-findings "the max-findings limit of 1 findings" plan --max-findings 1 fleet.yaml
# Quiet pairs no grouping skips (one network's 20 routes to one owner from 20
# routers, and each against that owner's range: 210 pairs, no finding) are
# bounded at 100 times max-findings.
{
  echo "version: 1"
  echo "clusters: [{name: x, network: 10.20.0.0/16, pods: [], services: []}]"
  echo "networks: [{name: vpn, type: vpn, cidrs: [192.168.0.0/24], routes: ["
  for k in $(seq 1 20); do echo "  {cidr: 10.20.0.0/16, to: x, advertised_by: r$k},"; done
  echo "]}]"
} >routes.yaml
expect_limit max-findings "error: the fleet has more than 200 overlapping pairs of ranges that are no finding (100 times the max-findings limit of 2)" \
  check --max-findings 2 routes.yaml
expect_read max-findings check --max-findings 3 routes.yaml

# max-errors: reading stops after N errors, with a last line that says so.
{
  echo "version: 1"
  echo "clusters:"
  for i in 1 2 3 4 5; do echo "  - {name: c$i, pods: [10.0.0.$i/16]}"; done
} >errors.yaml
expect_limit max-errors "too many errors: stopping at the max-errors limit of 2" check --max-errors 2 errors.yaml
[ "$(grep -c "host bits" err)" -eq 2 ] || fail "max-errors 2: not exactly 2 errors: $(cat err)"
"$cli" check --max-errors 10 errors.yaml 2>err && fail "errors.yaml was accepted"
[ "$(grep -c "host bits" err)" -eq 5 ] && ! grep -q "max-errors" err || fail "max-errors 10: $(cat err)"

# map: the rows of the picture.
expect_limit max-rows "more than the 2 rows a readable map holds (max-rows)" map --max-rows 2 -o map.svg fleet.yaml
expect_read max-rows map --max-rows 3 -o map.svg fleet.yaml

# Exports, read by import and by check as KIND:FILE.
cp "$repo/tests/fixtures/import/aws-vpcs/vpcs.json" vpcs.json
size=$(wc -c <vpcs.json)
expect_limit max-file-bytes "vpcs.json: error: aws-vpcs: file is larger than the max-file-bytes limit of 100 bytes" \
  import aws-vpcs vpcs.json --max-file-bytes 100
expect_read max-file-bytes import aws-vpcs vpcs.json --max-file-bytes "$size"
expect_limit max-file-bytes "vpcs.json: error: aws-vpcs: file is larger than the max-file-bytes limit of 100 bytes" \
  check --max-file-bytes 100 aws-vpcs:vpcs.json
expect_limit max-depth "nesting is deeper than the max-depth limit of 3 levels" import aws-vpcs vpcs.json --max-depth 3
expect_limit max-nodes "more than the max-nodes limit of 20 nodes" import aws-vpcs vpcs.json --max-nodes 20

# The configuration file obeys the same flags.
printf 'version: 1\nreserved:\n  - {cidr: 10.200.0.0/16, name: lab}\n' >config.yaml
expect_limit max-file-bytes "config.yaml: error: file is larger than the max-file-bytes limit of 40 bytes" \
  check --config config.yaml --max-file-bytes 40 fleet.yaml
expect_limit max-depth "config.yaml:3:5: error: nesting is deeper than the max-depth limit of 2 levels" \
  check --config config.yaml --max-depth 2 fleet.yaml
expect_read max-depth check --config config.yaml --max-depth 4 fleet.yaml

# A baseline is an input too.
"$cli" check --format json=baseline.json fleet.yaml >/dev/null || true
size=$(wc -c <baseline.json)
expect_limit max-file-bytes "baseline.json: error: file is larger than the max-file-bytes limit of 100 bytes" \
  check --baseline baseline.json --max-file-bytes 100 fleet.yaml
expect_read max-file-bytes check --baseline baseline.json --max-file-bytes "$size" fleet.yaml

# A fleet file read from git for diff: git is stopped once the limit is passed.
git init -q repo
cp fleet.yaml repo/
git -C repo -c user.name=t -c user.email=t@t add fleet.yaml
git -C repo -c user.name=t -c user.email=t@t commit -qm one
cd repo
expect_limit max-file-bytes "error: file is larger than the max-file-bytes limit of 64 bytes" \
  diff --max-file-bytes 64 --rev HEAD fleet.yaml
expect_read max-file-bytes diff --rev HEAD fleet.yaml
cd ..

# Plain lists: their own file and line limits, and max-errors.
printf '10.0.0.0/8\n10.1.0.0/16  # a comment that makes this line long\n' >list.txt
expect_limit max-file-bytes "list.txt: error: file is larger than the max-file-bytes limit of 8 bytes" \
  set merge --max-file-bytes 8 list.txt
expect_read max-file-bytes set merge --max-file-bytes 100 list.txt
expect_limit max-line-bytes "list.txt:2:21: error: line is longer than the max-line-bytes limit of 20 bytes" \
  set merge --max-line-bytes 20 list.txt
expect_read max-line-bytes set merge --max-line-bytes 60 list.txt
printf 'x\ny\nz\n' >bad.txt
expect_limit max-errors "too many errors: stopping at the max-errors limit of 1" set merge --max-errors 1 bad.txt

# Hostile documents at the default limits.
# Billion laughs: nine levels of ten aliases each is 10^9 nodes once expanded.
{
  echo "version: 1"
  echo "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"
  for i in 1 2 3 4 5 6 7 8 9; do
    p="*a$((i - 1))"
    echo "a$i: &a$i [$p, $p, $p, $p, $p, $p, $p, $p, $p, $p]"
  done
} >laughs.yaml
expect_limit max-nodes "more than the max-nodes limit of 5000000 nodes" check laughs.yaml
cp laughs.yaml laughs-config.yaml
expect_limit max-nodes "more than the max-nodes limit of 5000000 nodes" check --config laughs-config.yaml fleet.yaml
# One 1 MiB scalar used forty times: 40 MiB of text, over the 32 MiB of max-file-bytes.
{
  printf 'version: 1\nnote: &big "'
  head -c 1048576 /dev/zero | tr '\0' 'x'
  printf '"\nnotes: ['
  for i in $(seq 1 40); do printf '*big, '; done
  printf '*big]\n'
} >scalar.yaml
expect_limit max-file-bytes "holds more text than the max-file-bytes limit of 33554432" check scalar.yaml

# Issue 28: what was exponential, quadratic or unbounded (bench/gen_hostile.py writes the inputs;
# timeout 120 turns b92d7c3's hang into a failure, not a measurement: bench/hostile_scaling.py times them).
gen() { /usr/bin/python3 "$repo/bench/gen_hostile.py" "$@"; }
# A Terraform plan of 12 nested module calls of 6 variables each (6^12 walks when resolved afresh):
# read at the defaults, by import and by check; the subnet is placed in its VPC (no note that it is unknown).
gen tfplan-nested 12 6 nested.json
expect_read max-nodes import terraform-plan nested.json
grep -q "known only after apply" err && fail "nested plan: the subnet's VPC was not found: $(cat err)"
expect_read max-nodes check terraform-plan:nested.json
# What the resolution still walks counts against max-nodes: 200 instances whose variable leads to
# 200 VPCs are 40,000 targets from a file of 4,000 nodes. Positioned at the expression.
gen tfplan-wide 200 wide.json
expect_limit max-nodes "wide.json:1:" import terraform-plan wide.json --max-nodes 10000
grep -qF "error: terraform-plan: following references through module arguments and outputs walks more than the max-nodes limit of 10000 nodes" err ||
  fail "max-nodes: the resolution's limit message: $(cat err)"
expect_read max-nodes import terraform-plan wide.json --max-nodes 100000
# A baseline of 4 million objects in one array (the DOM parser with a callback rescanned the array as each ended).
gen baseline 4000000 values.json
expect_read max-nodes check --baseline values.json fleet.yaml
# Names and pin patterns: at most 1,024 bytes.
long=$(head -c 1025 /dev/zero | tr '\0' 'n')
printf 'version: 1\nclusters:\n  - {name: %s, pods: 10.0.0.0/16}\n' "$long" >long-name.yaml
expect_limit invalid "long-name.yaml:3:12: error: invalid name" check long-name.yaml
grep -qF "a name is at most 1024 bytes long, not 1025" err || fail "name length: $(cat err)"
printf 'version: 1\nclusters:\n  - {name: %s, pods: 10.0.0.0/16}\n' "${long:1}" >name-1024.yaml
expect_read invalid check name-1024.yaml
printf 'version: 1\nclusters:\n  - {name: a, pods: 10.0.0.0/16}\nplan:\n  pin: ["%s"]\n' "$long" >long-pin.yaml
expect_limit pin "long-pin.yaml:5:9: error: a pin is at most 1024 bytes long, as a name is, not 1025" plan long-pin.yaml
expect_limit pin "--pin: a pin is at most 1024 bytes long, as a name is, not 1025" plan --pin "$long" fleet.yaml
# set alloc: a block count past max-blocks is refused before any block is taken.
expect_limit max-blocks "--count 18446744073709551615 blocks is more than the max-blocks limit of 10000000" \
  set alloc --within ::/0 --length 128 --count 18446744073709551615 list.txt
expect_read max-blocks set alloc --within ::/0 --length 128 --count 1000 --max-blocks 1000 list.txt

# Issue 28, item 20: one range of node masks, 1 to the address width, for the fleet reader and the
# importers alike: a Node whose pod CIDR is 0.0.0.0/0 made `import` write node_cidr_mask: 0, which
# the reader refuses. Both are now an error at the value, and what import writes always reads back.
# expect_refused MESSAGE COMMAND...: exit 2, and stderr holds a positioned error with MESSAGE.
expect_refused() {
  local message=$1 status=0
  shift
  timeout 120 "$cli" "$@" >out 2>err || status=$?
  if [ "$status" -ne 2 ] || ! grep -qE -- ":[0-9]+:[0-9]+: error: .*$message" err; then
    fail "\`cidrcheck $*\` exited $status, not 2 with '$message': $(head -c 500 err)"
  fi
}
printf 'version: 1\nclusters:\n  - {name: a, node_cidr_mask: 0}\n' >mask0.yaml
expect_refused "node_cidr_mask must be between 1 and 32" check mask0.yaml
printf 'version: 1\nclusters:\n  - {name: a, node_cidr_mask_v6: 129}\n' >mask129.yaml
expect_refused "node_cidr_mask_v6 must be between 1 and 128" check mask129.yaml
printf 'apiVersion: v1\nkind: Node\nspec: {podCIDR: 0.0.0.0/0}\n' >node0.yaml
expect_refused "node CIDR masks are 1 to 32" import kubectl node0.yaml
printf 'apiVersion: v1\nkind: Node\nspec: {podCIDR: 10.1.2.0/24}\n' >node24.yaml
status=0
"$cli" import kubectl node24.yaml >imported.yaml 2>err || status=$?
"$cli" check -q imported.yaml 2>err || status=$((status + $?))
[ "$status" -eq 0 ] && grep -q "node_cidr_mask: 24" imported.yaml || fail "import kubectl of a /24 node: $(cat err)"

if [ "$failures" -ne 0 ]; then
  echo "limits_test: $failures failures" >&2
  exit 1
fi
echo "limits_test: every limit is enforced and can be raised"
