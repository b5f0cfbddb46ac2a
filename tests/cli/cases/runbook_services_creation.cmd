plan tests/fixtures/fleets/runbook/services-creation.yaml
