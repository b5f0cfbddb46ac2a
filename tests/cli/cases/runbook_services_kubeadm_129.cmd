plan tests/fixtures/fleets/runbook/services-kubeadm-129.yaml
