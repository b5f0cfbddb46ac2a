plan tests/fixtures/fleets/runbook/services-eks.yaml
