set merge --help
