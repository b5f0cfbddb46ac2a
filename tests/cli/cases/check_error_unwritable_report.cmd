check data/examples/kops-tailnet.yaml --format text --format json=tests/fixtures/no-such-dir/report.json
