set alloc --within 10.0.0.0/8 --length 33 tests/fixtures/lists/basic.txt
