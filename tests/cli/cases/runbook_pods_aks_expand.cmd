plan tests/fixtures/fleets/runbook/pods-aks-expand.yaml
