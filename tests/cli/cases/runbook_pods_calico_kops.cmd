plan tests/fixtures/fleets/runbook/pods-calico-kops.yaml
