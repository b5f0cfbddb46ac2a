import tailscale tests/fixtures/import/tailscale/policy.hujson
