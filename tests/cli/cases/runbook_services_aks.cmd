plan tests/fixtures/fleets/runbook/services-aks.yaml
