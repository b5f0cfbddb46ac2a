explain CIDR902
