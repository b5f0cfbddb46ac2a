check tests/fixtures/fleets/many-problems.yaml --format sarif
