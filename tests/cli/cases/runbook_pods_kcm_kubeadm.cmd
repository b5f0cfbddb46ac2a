plan tests/fixtures/fleets/runbook/pods-kcm-kubeadm.yaml
