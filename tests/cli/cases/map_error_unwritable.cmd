map -o /nonexistent-directory/map.svg data/examples/mesh-shared-services.yaml
