import terraform tests/fixtures/import/terraform/terraform.tfstate
