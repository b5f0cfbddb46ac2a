check kubectl-services=shop:tests/fixtures/import/kubectl-services/bad-ip.yaml
