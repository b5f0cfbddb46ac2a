check --format json data/examples/peered-vpc-pods.yaml
