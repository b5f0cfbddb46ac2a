import terraform tests/fixtures/import/terraform/gcp-networks.tfstate
