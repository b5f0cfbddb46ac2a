plan data/examples/mesh-shared-services.yaml
