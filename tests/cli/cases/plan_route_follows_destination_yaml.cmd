plan --format yaml tests/fixtures/fleets/routes/route-follows.yaml
