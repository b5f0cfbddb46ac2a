import terraform-plan tests/fixtures/import/terraform-plan/malformed.json
