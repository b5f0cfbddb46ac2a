plan tests/fixtures/fleets/runbook/pods-add-cilium.yaml
