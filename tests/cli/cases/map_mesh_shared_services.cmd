map -o - data/examples/mesh-shared-services.yaml
