plan data/examples/kops-tailnet.yaml
