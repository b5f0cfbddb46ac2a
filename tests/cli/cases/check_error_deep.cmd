check tests/fixtures/fleets/deep.yaml
