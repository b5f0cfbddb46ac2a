capacity --pool 10.0.0.1/8 data/examples/mesh-shared-services.yaml
