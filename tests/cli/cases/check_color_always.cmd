check data/examples/kops-tailnet.yaml --color always
