plan tests/fixtures/fleets/vpc/in-vpc.yaml
