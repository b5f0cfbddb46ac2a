import kubectl --cluster dc1 tests/fixtures/import/kubectl/lab.yaml tests/fixtures/import/kubectl/one-node.yaml
