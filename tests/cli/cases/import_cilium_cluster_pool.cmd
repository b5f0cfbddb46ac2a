import cilium=lab:tests/fixtures/import/cilium/cluster-pool.yaml
