check tests/fixtures/fleets/tabs.yaml
