check data/examples/vpn-home-routers.yaml -q
