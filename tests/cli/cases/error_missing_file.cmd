set merge tests/fixtures/lists/missing.txt
