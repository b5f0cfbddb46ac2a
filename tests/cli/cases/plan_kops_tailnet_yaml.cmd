plan --format yaml data/examples/kops-tailnet.yaml
