map --pool 10.0.0.0/9 --pool 192.168.0.0/16 --width 900 --title 'Two pools' -o - data/examples/vpn-home-routers.yaml
