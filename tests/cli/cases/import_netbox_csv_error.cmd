import netbox-csv tests/fixtures/import/netbox/bad.csv
