set merge --frobnicate tests/fixtures/lists/basic.txt
