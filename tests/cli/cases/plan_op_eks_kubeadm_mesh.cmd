plan tests/fixtures/fleets/plan/eks-kubeadm-mesh.yaml
