import aws-subnets tests/fixtures/import/aws-subnets/subnets.json
