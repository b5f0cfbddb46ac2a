plan tests/fixtures/fleets/plan/shared-vpc-pools.yaml --named-pool lab=172.24.0.0/13@site
