plan tests/fixtures/fleets/runbook/services-gke.yaml
