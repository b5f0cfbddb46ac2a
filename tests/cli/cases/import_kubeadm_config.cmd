import kubeadm-config=lab:tests/fixtures/import/kubeadm-config/lab.yaml
