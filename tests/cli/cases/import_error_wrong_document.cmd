import aws-eks tests/fixtures/import/aws-vpcs/vpcs.json
