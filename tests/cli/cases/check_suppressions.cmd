check tests/fixtures/fleets/suppressions.yaml
