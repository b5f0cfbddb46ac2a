check terraform-plan:tests/fixtures/import/terraform-plan/peering.json
