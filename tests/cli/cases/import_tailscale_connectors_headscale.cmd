import tailscale:tests/fixtures/import/tailscale/connectors.yaml tailscale:tests/fixtures/import/tailscale/headscale.yaml
