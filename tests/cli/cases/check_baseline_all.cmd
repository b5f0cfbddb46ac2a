check data/examples/mesh-shared-services.yaml --baseline tests/fixtures/baselines/mesh-shared-services.json
