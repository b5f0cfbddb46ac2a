check tests/fixtures/fleets/bad-yaml.yaml --format html
