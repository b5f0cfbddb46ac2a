check tests/fixtures/routes/unknown-route-owner.yaml
