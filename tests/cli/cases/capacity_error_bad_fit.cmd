capacity --fit 16,x data/examples/mesh-shared-services.yaml
