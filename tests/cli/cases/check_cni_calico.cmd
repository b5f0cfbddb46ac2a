check tests/fixtures/fleets/cni/calico.yaml
