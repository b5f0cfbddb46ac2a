check tests/fixtures/fleets/missing.yaml
