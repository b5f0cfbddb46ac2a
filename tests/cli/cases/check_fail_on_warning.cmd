check --fail-on warning tests/fixtures/fleets/no-version-but-fine.yaml
