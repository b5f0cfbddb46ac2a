diff data/examples/kops-tailnet.yaml data/examples/kops-tailnet.yaml
