check --config tests/fixtures/config/bad.yaml data/examples/kops-tailnet.yaml
