import aws-vpcs:tests/fixtures/import/aws-vpcs/vpcs.json aws-peerings:tests/fixtures/import/aws-peerings/peerings.json
