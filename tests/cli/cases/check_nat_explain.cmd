explain global-range-overlap
