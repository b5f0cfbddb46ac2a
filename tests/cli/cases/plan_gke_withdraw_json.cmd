plan --format json tests/fixtures/fleets/runbook/pods-gke-withdraw.yaml
