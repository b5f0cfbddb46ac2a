plan --cost region:eu=5 tests/fixtures/fleets/plan/eks-kubeadm-mesh.yaml
