plan tests/fixtures/fleets/runbook/services-kubeadm-131.yaml
