plan --pin */services data/examples/mesh-shared-services.yaml
