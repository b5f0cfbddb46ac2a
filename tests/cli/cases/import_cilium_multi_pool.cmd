import cilium=lab:tests/fixtures/import/cilium/multi-pool.yaml
