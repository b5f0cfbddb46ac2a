set alloc --within 10.0.0.0/14 --length 16 --count 3 tests/fixtures/lists/basic.txt
