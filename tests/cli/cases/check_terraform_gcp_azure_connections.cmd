check terraform:tests/fixtures/import/terraform/gcp-azure-connections.tfstate
