set alloc --within 10.0.0.0/8 --length 16 -n 4 tests/fixtures/lists/basic.txt
