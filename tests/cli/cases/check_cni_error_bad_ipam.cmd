check tests/fixtures/fleets/cni/bad-ipam.yaml
