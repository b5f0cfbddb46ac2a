plan tests/fixtures/fleets/runbook/network-kops-replacement.yaml
