import kubectl-services:tests/fixtures/import/kubectl-services/lab.json
