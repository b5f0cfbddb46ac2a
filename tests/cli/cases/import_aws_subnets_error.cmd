import aws-subnets tests/fixtures/import/aws-subnets/bad.json
