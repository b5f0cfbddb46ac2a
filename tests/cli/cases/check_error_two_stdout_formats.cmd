check data/examples/kops-tailnet.yaml --format text --format json
