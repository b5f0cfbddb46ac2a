plan --cost owner:ops-kubeadm=3 tests/fixtures/fleets/plan/cost-overrides.yaml
