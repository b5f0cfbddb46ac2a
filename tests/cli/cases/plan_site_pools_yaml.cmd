plan --format yaml tests/fixtures/fleets/plan/site-pools.yaml
