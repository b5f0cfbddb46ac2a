check data/examples/mesh-shared-services.yaml --baseline tests/fixtures/baselines/mesh-partial.json
