plan tests/fixtures/fleets/runbook/pods-add-calico.yaml
