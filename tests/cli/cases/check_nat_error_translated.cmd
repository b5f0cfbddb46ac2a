check tests/fixtures/fleets/nat/bad-translated.yaml
