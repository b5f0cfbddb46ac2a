plan tests/fixtures/fleets/plan/site-pools.yaml
