plan tests/fixtures/fleets/runbook/services-dualstack-133.yaml
