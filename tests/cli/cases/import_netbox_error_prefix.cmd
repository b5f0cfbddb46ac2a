import netbox tests/fixtures/import/netbox/bad-prefix.json
