check netbox:tests/fixtures/import/netbox/prefixes.json
