check azure-vnets:tests/fixtures/import/azure-vnets/subnet-peering.json
