import cilium=lab:tests/fixtures/import/cilium/kubernetes-mode.yaml
