check kubeadm:tests/fixtures/import/kubeadm/lab.yaml kubectl:tests/fixtures/import/kubectl/drift/lab.yaml --format json
