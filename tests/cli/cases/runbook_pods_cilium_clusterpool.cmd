plan tests/fixtures/fleets/runbook/pods-cilium-clusterpool.yaml
