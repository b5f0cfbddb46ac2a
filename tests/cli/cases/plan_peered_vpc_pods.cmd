plan data/examples/peered-vpc-pods.yaml
