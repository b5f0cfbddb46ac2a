plan --cost owner:ops-kubeadm=50 tests/fixtures/fleets/plan/eks-kubeadm-mesh.yaml
