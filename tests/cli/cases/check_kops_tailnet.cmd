data/examples/kops-tailnet.yaml
