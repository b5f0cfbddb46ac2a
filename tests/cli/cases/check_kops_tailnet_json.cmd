check --format json data/examples/kops-tailnet.yaml
