import aws-vpc tests/fixtures/import/aws-vpcs/vpcs.json
