plan tests/fixtures/fleets/plan/more-pod-space.yaml
