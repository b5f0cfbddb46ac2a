set overlaps --count tests/fixtures/lists/basic.txt
