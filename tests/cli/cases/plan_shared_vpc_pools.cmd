plan tests/fixtures/fleets/plan/shared-vpc-pools.yaml
