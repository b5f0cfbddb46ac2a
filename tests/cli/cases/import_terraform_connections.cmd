import terraform tests/fixtures/import/terraform/connections.tfstate
