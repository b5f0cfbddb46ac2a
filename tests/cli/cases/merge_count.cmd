set merge --count tests/fixtures/lists/basic.txt
