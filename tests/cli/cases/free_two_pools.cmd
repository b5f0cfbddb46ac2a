set free --within 10.0.0.0/8 --within 172.16.0.0/12 tests/fixtures/lists/basic.txt
