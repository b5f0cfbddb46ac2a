import terraform tests/fixtures/import/terraform/show.json
