plan --format yaml tests/fixtures/fleets/plan/more-pod-space.yaml tests/fixtures/fleets/plan/eks-kubeadm-mesh.yaml
