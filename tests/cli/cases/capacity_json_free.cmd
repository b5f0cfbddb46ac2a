capacity --format json --pool 10.0.0.0/8 --pool fd00::/8 --fit 16 --free data/examples/vpn-home-routers.yaml
