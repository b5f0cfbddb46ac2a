completion fish
