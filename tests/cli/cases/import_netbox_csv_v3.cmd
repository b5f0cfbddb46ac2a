import netbox-csv tests/fixtures/import/netbox/prefixes-v3.csv
