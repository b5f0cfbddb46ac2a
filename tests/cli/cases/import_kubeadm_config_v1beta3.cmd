import kubeadm-config:tests/fixtures/import/kubeadm-config/homelab-v1beta3.yaml
