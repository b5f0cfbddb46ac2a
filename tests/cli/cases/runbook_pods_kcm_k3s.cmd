plan tests/fixtures/fleets/runbook/pods-kcm-k3s.yaml
