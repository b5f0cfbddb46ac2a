capacity -o data/examples/mesh-shared-services.yaml data/examples/mesh-shared-services.yaml
