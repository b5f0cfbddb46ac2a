diff terraform-plan:tests/fixtures/import/terraform-plan/transit-base.json terraform-plan:tests/fixtures/import/terraform-plan/transit.json
