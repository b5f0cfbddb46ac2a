check data/examples/kops-tailnet.yaml --format sarf=out.sarif
