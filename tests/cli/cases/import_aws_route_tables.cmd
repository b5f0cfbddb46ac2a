import aws-route-tables tests/fixtures/import/aws-route-tables/route-tables.json
