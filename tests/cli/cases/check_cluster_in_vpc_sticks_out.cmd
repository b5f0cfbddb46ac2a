check tests/fixtures/fleets/vpc/sticks-out.yaml
