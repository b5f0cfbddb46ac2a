import eks tests/fixtures/import/aws-eks/my-eks-cluster.json
