plan tests/fixtures/fleets/runbook/pods-openshift.yaml
