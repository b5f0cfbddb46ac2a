capacity --pool 10.0.0.0/9 --free data/examples/mesh-shared-services.yaml
