check tests/fixtures/fleets/cni/others.yaml
