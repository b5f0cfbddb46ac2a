plan --cost replacment-cluster=30 tests/fixtures/fleets/plan/eks-kubeadm-mesh.yaml
