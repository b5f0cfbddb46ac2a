check tests/fixtures/fleets/plan/site-pools.yaml --format html
