rules --format json
