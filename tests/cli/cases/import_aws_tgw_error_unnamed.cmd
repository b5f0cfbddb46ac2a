check aws-tgw:tests/fixtures/import/aws-tgw/routes.json
