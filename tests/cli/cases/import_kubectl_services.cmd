import kubeadm-config=lab:tests/fixtures/import/kubeadm-config/lab.yaml kubectl-services=lab:tests/fixtures/import/kubectl-services/lab.json
