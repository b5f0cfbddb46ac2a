plan tests/fixtures/fleets/routes/route-follows.yaml
