import azure-vnets tests/fixtures/import/azure-vnets/vnets.json
