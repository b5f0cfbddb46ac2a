plan tests/fixtures/fleets/runbook/services-rke2-126.yaml
