import netbox-csv tests/fixtures/import/netbox/ip-addresses.csv
