plan tests/fixtures/fleets/runbook/network-new-vpc.yaml
