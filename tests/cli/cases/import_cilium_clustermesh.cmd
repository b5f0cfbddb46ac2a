import cilium=mesh-east:tests/fixtures/import/cilium/clustermesh.yaml
