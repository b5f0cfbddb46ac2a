diff tests/fixtures/diff/old.yaml tests/fixtures/fleets/bad-yaml.yaml --format json
