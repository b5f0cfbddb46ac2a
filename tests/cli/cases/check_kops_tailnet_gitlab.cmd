check data/examples/kops-tailnet.yaml --format gitlab
