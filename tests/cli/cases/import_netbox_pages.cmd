import netbox tests/fixtures/import/netbox/pages.json
