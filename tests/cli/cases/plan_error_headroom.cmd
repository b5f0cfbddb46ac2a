plan --headroom 0.5 data/examples/peered-vpc-pods.yaml
