import azure-vnets:tests/fixtures/import/azure-vnets/vnets.json azure-vnets:tests/fixtures/import/azure-vnets/app-subnets.json
