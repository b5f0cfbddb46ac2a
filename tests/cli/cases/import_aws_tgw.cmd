import aws-vpcs:tests/fixtures/import/aws-vpcs/vpcs.json aws-tgw:tests/fixtures/import/aws-tgw/tgw.json aws-tgw=tgw-rtb-06b2c1d0e9f8a7b6c:tests/fixtures/import/aws-tgw/routes.json
