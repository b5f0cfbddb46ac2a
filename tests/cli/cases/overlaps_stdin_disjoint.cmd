set overlaps -
