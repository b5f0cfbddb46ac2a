check azure-vnets:tests/fixtures/import/azure-vnets/overlap.json
