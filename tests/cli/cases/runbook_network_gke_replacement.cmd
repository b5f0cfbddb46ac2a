plan tests/fixtures/fleets/runbook/network-gke-replacement.yaml
