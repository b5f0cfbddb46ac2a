set alloc --within 2001:db8::/31 --length 48 --count 5 tests/fixtures/lists/v6.txt
