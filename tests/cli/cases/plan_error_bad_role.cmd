plan --pool svc=10.0.0.0/8 data/examples/peered-vpc-pods.yaml
