import azure-vnets tests/fixtures/import/azure-vnets/bad.json
