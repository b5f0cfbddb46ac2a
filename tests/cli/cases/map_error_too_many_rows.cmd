map --max-rows 2 -o - data/examples/mesh-shared-services.yaml
