import kops:tests/fixtures/import/kops/minimal.yaml kops:tests/fixtures/import/kops/completed.yaml kubeadm:tests/fixtures/import/kubeadm/lab.yaml kubectl:tests/fixtures/import/kubectl/lab.yaml
