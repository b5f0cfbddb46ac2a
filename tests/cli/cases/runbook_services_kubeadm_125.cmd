plan tests/fixtures/fleets/runbook/services-kubeadm-125.yaml
