plan tests/fixtures/fleets/runbook/services-generic-unknown.yaml
