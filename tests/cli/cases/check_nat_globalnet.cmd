check tests/fixtures/fleets/nat/globalnet.yaml
