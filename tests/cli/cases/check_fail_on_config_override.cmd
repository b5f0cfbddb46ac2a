check --config tests/fixtures/config/settings.yaml --fail-on never --min-severity error
