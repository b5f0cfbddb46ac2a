import aws-vpcs tests/fixtures/import/aws-vpcs/truncated.json
