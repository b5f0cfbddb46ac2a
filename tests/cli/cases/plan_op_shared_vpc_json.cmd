plan --format json tests/fixtures/fleets/plan/shared-vpc.yaml
