import tailscale:tests/fixtures/routes/subnet-routers.hujson tests/fixtures/routes/vpcs.yaml
