plan --format json data/examples/mesh-shared-services.yaml
