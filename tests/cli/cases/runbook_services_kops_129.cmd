plan tests/fixtures/fleets/runbook/services-kops-129.yaml
