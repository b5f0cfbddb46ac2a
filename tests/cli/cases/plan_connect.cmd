plan --connect payments,ledger --routes network,pods data/examples/peered-vpc-pods.yaml
