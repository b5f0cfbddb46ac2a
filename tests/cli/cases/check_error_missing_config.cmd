check --config tests/fixtures/config/nope.yaml data/examples/kops-tailnet.yaml
