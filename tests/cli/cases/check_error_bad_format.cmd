check --format xml data/examples/kops-tailnet.yaml
