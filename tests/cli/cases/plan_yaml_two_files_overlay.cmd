plan --format yaml data/examples/peered-vpc-pods.yaml data/examples/kops-tailnet.yaml
