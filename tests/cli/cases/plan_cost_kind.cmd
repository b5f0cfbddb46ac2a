plan --cost service-cidr-api=3 tests/fixtures/fleets/plan/eks-kubeadm-mesh.yaml
