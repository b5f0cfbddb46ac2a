plan tests/fixtures/fleets/plan/site-pools-bad.yaml
