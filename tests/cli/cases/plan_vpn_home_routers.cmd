plan data/examples/vpn-home-routers.yaml
