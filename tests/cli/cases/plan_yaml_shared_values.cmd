plan --format yaml tests/fixtures/fleets/plan-shared-values.yaml
