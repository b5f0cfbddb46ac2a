plan --cost owner:ops-kubeadm=50 --cost distribution:eks/replacement-cluster=1 --format json tests/fixtures/fleets/plan/eks-kubeadm-mesh.yaml
