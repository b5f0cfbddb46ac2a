set free tests/fixtures/lists/basic.txt
