map -o - tests/fixtures/fleets/bad-yaml.yaml
