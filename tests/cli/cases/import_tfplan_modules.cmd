import terraform-plan tests/fixtures/import/terraform-plan/plan.json
