check terraform-plan:tests/fixtures/import/terraform-plan/placeholder-version.json
