plan tests/fixtures/fleets/nat/globalnet-routed.yaml
