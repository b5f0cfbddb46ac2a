plan tests/fixtures/fleets/runbook/pods-kcm-unknown-cni.yaml
