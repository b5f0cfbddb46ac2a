set free --within 10.0.0.1/8 tests/fixtures/lists/basic.txt
