plan tests/fixtures/fleets/runbook/pods-calico-kubeadm.yaml
