diff tests/fixtures/diff/old.yaml tests/fixtures/diff/new.yaml --format json
