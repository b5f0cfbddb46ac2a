import terraform-plan tests/fixtures/import/terraform-plan/main.tfstate
