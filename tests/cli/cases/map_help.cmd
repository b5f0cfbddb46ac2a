map --help
