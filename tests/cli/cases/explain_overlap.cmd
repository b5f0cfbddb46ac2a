explain overlap
