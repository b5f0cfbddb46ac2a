plan tests/fixtures/fleets/plan/shared-vpc.yaml
