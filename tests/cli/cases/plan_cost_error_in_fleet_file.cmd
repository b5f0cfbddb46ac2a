plan tests/fixtures/fleets/plan/cost-overrides-bad.yaml
