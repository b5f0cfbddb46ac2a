plan tests/fixtures/fleets/runbook/network-shared-azure.yaml
