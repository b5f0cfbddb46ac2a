plan --connect payments,ledgr data/examples/peered-vpc-pods.yaml
