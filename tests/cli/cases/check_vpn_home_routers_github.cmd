check data/examples/vpn-home-routers.yaml --format github
