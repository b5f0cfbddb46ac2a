plan --format json tests/fixtures/fleets/plan/site-pools.yaml
