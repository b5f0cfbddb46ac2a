check data/examples/mesh-shared-services.yaml --format gitlab
