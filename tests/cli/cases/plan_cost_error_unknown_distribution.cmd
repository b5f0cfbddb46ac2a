plan --cost distribution:ekss/pods=5 tests/fixtures/fleets/plan/eks-kubeadm-mesh.yaml
