import netbox tests/fixtures/import/netbox/page-1-of-2.json
