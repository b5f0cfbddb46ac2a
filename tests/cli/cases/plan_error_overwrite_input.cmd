plan --format yaml -o data/examples/peered-vpc-pods.yaml data/examples/peered-vpc-pods.yaml
