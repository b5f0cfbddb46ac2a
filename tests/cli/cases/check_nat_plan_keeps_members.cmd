plan tests/fixtures/fleets/nat/globalnet.yaml
