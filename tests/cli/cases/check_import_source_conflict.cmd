check aws-vpcs:tests/fixtures/import/aws-vpcs/vpcs.json terraform:tests/fixtures/import/terraform/stale.tfstate
