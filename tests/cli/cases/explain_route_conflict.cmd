explain route-conflict
