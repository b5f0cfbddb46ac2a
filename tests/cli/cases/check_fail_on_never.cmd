check --fail-on never data/examples/kops-tailnet.yaml
