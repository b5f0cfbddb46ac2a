plan tests/fixtures/fleets/plan/cost-overrides.yaml
