check --format json data/examples/vpn-home-routers.yaml
