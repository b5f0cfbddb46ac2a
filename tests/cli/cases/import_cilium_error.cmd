check cilium=lab:tests/fixtures/import/cilium/bad-pool.yaml
