check --min-severity warning tests/fixtures/fleets/nat/globalnet-routed.yaml
