plan tests/fixtures/fleets/plan-cost-too-high.yaml
