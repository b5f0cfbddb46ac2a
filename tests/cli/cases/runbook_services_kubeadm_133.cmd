plan tests/fixtures/fleets/runbook/services-kubeadm-133.yaml
