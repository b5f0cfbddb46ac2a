capacity --fit 12,16 --fit /20 data/examples/platform-fleet.yaml
