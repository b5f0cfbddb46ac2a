check tests/fixtures/import/kubectl-services/k3s-fleet.yaml kubectl-services=edge:tests/fixtures/import/kubectl-services/k3s.json
