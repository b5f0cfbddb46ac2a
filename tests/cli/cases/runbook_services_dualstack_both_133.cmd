plan tests/fixtures/fleets/runbook/services-dualstack-both-133.yaml
