import tailscale tests/fixtures/import/tailscale/unterminated.hujson
