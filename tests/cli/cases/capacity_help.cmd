capacity --help
