check tests/fixtures/routes/vpn-routes.yaml
