import terraform-plan tests/fixtures/import/terraform-plan/future.json
