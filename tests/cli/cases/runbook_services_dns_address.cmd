plan tests/fixtures/fleets/runbook/services-dns-address.yaml
