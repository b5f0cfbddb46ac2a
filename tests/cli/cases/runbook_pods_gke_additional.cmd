plan tests/fixtures/fleets/runbook/pods-gke-additional.yaml
