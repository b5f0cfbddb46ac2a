plan tests/fixtures/fleets/runbook/network-gke-reaches-branch.yaml
