set merge tests/fixtures/lists/empty.txt
