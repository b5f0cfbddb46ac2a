plan --fix-latent data/examples/peered-vpc-pods.yaml
