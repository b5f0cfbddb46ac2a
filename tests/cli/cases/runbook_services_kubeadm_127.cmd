plan tests/fixtures/fleets/runbook/services-kubeadm-127.yaml
