check kubeadm-config=lab:tests/fixtures/import/kubeadm-config/bad-subnet.yaml
