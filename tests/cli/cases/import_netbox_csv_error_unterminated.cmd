import netbox-csv tests/fixtures/import/netbox/unterminated.csv
