map data/examples/mesh-shared-services.yaml
