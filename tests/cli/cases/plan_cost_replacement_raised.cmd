plan --cost owner:ops/replacement-cluster=1 tests/fixtures/fleets/plan/cost-replacement-raised.yaml
