plan --cost owner:ops-kubeadmm=5 tests/fixtures/fleets/plan/eks-kubeadm-mesh.yaml
