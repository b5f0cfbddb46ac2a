import cilium=edge-1:tests/fixtures/import/cilium/values.yaml
