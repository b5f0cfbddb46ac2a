set merge tests/fixtures/lists/bad.txt
