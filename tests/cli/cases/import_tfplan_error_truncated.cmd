import terraform-plan tests/fixtures/import/terraform-plan/truncated.json
