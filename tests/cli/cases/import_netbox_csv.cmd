import netbox-csv tests/fixtures/import/netbox/prefixes.csv
