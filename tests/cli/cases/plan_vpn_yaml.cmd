plan --format yaml data/examples/vpn-home-routers.yaml
