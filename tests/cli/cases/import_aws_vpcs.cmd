import aws-vpcs tests/fixtures/import/aws-vpcs/vpcs.json
