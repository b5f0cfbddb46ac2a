set merge tests/fixtures/lists/basic.txt tests/fixtures/lists/v6.txt
