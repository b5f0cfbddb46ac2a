import terraform-plan tests/fixtures/import/terraform-plan/instances.json
