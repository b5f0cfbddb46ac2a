plan --format yaml tests/fixtures/fleets/plan/more-pod-space.yaml
