import tests/fixtures/import/fleet-settings.yaml aws-eks:tests/fixtures/import/aws-eks/my-eks-cluster.json
