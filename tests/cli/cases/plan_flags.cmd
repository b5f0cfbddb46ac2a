plan --pool services=10.200.0.0/13 --pool services=10.208.0.0/13 --cost pods=1 --headroom 1.5 data/examples/mesh-shared-services.yaml
