plan tests/fixtures/fleets/runbook/network-shared-aws.yaml
