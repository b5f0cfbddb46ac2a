#!/usr/bin/env bash
# The new-user trial of the CI issue, scripted: in a scratch git repository, a
# pull request adds a cluster whose pods overlap a meshed neighbour. The PR
# check (`cidrcheck diff --rev main --format github`) fails with an annotation
# on the new cluster's pods line; a suppression with a reason makes it pass.
# Usage: new_user_trial.sh CIDRCHECK SCRATCH_DIR
set -euo pipefail
cli=$1
scratch=$2
rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch"

fail() { echo "new_user_trial: $*" >&2; exit 1; }

git init -q -b main
git config user.email trial@example.invalid
git config user.name trial
cat > fleet.yaml <<'YAML'
version: 1
clusters:
  - name: prod-eu
    network: 10.10.0.0/16
    pods: 10.20.0.0/16
    services: 10.30.0.0/16
  - name: prod-us
    network: 10.11.0.0/16
    pods: 10.21.0.0/16
    services: 10.31.0.0/16
connections:
  - name: mesh
    between: [prod-eu, prod-us]
    via: mesh
    routes: [pods, services]
YAML
"$cli" init >/dev/null 2>&1
sed -i 's/^# inputs: \[fleet.yaml\]/inputs: [fleet.yaml]/' .cidrcheck.yaml
git add fleet.yaml .cidrcheck.yaml
git commit -qm "the fleet"
"$cli" check >/dev/null || fail "the base fleet should pass"

# The pull request: a third cluster joins the mesh, its pods on prod-eu's.
git checkout -qb add-prod-ap
cat > fleet.yaml <<'YAML'
version: 1
clusters:
  - name: prod-eu
    network: 10.10.0.0/16
    pods: 10.20.0.0/16
    services: 10.30.0.0/16
  - name: prod-us
    network: 10.11.0.0/16
    pods: 10.21.0.0/16
    services: 10.31.0.0/16
  - name: prod-ap
    network: 10.12.0.0/16
    pods: 10.20.0.0/16
    services: 10.32.0.0/16
connections:
  - name: mesh
    between: [prod-eu, prod-us, prod-ap]
    via: mesh
    routes: [pods, services]
YAML
git commit -qam "add prod-ap"

set +e
annotations=$("$cli" diff --rev main --format github)
status=$?
set -e
[ "$status" -eq 1 ] || fail "the pull request should fail the check (exit 1), got $status"
expected='::error file=fleet.yaml,line=13,endLine=13,col=11,endColumn=23,title=overlap (CIDR101)::'
[ "$(grep -c '^::' <<<"$annotations")" -eq 1 ] || fail "expected one annotation, got: $annotations"
[[ $annotations == "$expected"* ]] || fail "expected the annotation on prod-ap's pods (line 13), got: $annotations"
[[ $annotations == *"prod-ap"* && $annotations == *"prod-eu"* ]] || fail "the annotation should name both clusters"

# The fix a reviewer accepts: a suppression with a reason, in the fleet file.
cat >> fleet.yaml <<'YAML'
suppressions:
  - rule: overlap
    entities: [prod-ap/pods, prod-eu/pods]
    reason: prod-ap's pods are NATed at the mesh gateway until its renumbering in Q3
    expires: 2999-12-31
YAML
git commit -qam "accept the overlap until the renumbering"
set +e
annotations=$("$cli" diff --rev main --format github)
status=$?
set -e
[ "$status" -eq 0 ] || fail "with the suppression the check should pass, got exit $status: $annotations"
[ -z "$annotations" ] || fail "with the suppression nothing should be annotated, got: $annotations"

# The suppression still shows in the text summary and the JSON report.
summary=$("$cli" diff --rev main | tail -1)
[[ $summary == *"1 suppressed"* ]] || fail "the summary should count the suppressed finding: $summary"
"$cli" check --format json | grep -q '"reason":"prod-ap'"'"'s pods are NATed' || fail "the JSON report should carry the reason"

# A suppression without a reason is refused, at its position.
sed -i '/^    reason:/d' fleet.yaml
set +e
errors=$("$cli" diff --rev main 2>&1 >/dev/null)
status=$?
set -e
[ "$status" -eq 2 ] || fail "a suppression without a reason should be an input error (exit 2), got $status"
[[ $errors == "fleet.yaml:21:5: error: a suppression needs 'reason'"* ]] || fail "unexpected message: $errors"
echo "new_user_trial: ok"
