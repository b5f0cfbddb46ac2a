import azure-vnets:tests/fixtures/import/azure-vnets/vnets.json azure-peerings:tests/fixtures/import/azure-peerings/hub-peerings.json
