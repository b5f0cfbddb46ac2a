plan tests/fixtures/fleets/runbook/services-openshift.yaml
