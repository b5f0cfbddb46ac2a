import cilium=edge:tests/fixtures/import/cilium/unknown-ipam.yaml
