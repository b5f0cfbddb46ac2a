check data/examples/kops-tailnet.yaml --format github
