check --config tests/fixtures/config/settings.yaml
