import terraform tests/fixtures/import/terraform/terraformer.tfstate
