diff tests/fixtures/diff/old.yaml
