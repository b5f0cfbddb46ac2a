plan --cost services=2000000 data/examples/peered-vpc-pods.yaml
