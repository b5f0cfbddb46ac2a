plan tests/fixtures/fleets/plan/eks-network-services.yaml
