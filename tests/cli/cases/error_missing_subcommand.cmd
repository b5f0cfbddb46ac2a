set
