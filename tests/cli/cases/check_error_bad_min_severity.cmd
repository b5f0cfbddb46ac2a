check data/examples/kops-tailnet.yaml --min-severity never
