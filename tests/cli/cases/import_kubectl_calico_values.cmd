import kubectl=dc1:tests/fixtures/import/kubectl/tigera-operator-values.yaml kubectl=dc1:tests/fixtures/import/kubectl/kube-proxy.yaml
