plan tests/fixtures/fleets/runbook/pods-cilium-multipool.yaml
