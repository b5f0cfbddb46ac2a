check tests/fixtures/fleets/vpc/in-vpc.yaml
