check tests/fixtures/fleets/suppressions.yaml --format json
