plan tests/fixtures/fleets/runbook/pods-gke-withdraw.yaml
