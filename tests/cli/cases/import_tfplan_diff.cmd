diff --config tests/fixtures/import/terraform-plan/gate.cidrcheck.yaml terraform:tests/fixtures/import/terraform-plan/main.tfstate terraform-plan:tests/fixtures/import/terraform-plan/plan.json
