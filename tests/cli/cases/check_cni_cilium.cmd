check tests/fixtures/fleets/cni/cilium.yaml
