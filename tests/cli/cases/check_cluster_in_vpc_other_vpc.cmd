check tests/fixtures/fleets/vpc/other-vpc.yaml
