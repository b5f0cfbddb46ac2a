check tests/fixtures/fleets/bad-suppressions.yaml
