map --pool 10.0.0.1/8 -o - data/examples/mesh-shared-services.yaml
