plan --format yaml tests/fixtures/fleets/plan/shared-vpc.yaml
