check aws-vpcs:tests/fixtures/import/aws-vpcs/vpcs.json aws-subnets:tests/fixtures/import/aws-subnets/stray.json
