plan tests/fixtures/fleets/plan/kops-129.yaml
