plan tests/fixtures/fleets/runbook/services-k3s.yaml
