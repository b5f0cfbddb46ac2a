plan tests/fixtures/fleets/runbook/network-renumber-onprem.yaml
