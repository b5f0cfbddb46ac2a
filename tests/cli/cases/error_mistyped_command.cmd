pln tests/fixtures/fleets/x.yaml
