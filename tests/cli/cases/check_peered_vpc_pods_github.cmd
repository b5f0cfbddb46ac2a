check data/examples/peered-vpc-pods.yaml --format github
