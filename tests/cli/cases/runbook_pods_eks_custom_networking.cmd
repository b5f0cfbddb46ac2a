plan tests/fixtures/fleets/runbook/pods-eks-custom-networking.yaml
