#pragma once
// The lazy iterators behind iter(prefix), iter(address_set) and prefix.subnets():
// they hold a position, never a list, so ::/0 iterates without allocating.

#include "convert.hpp"

#include <vector>

namespace cidrcheck::python {

/// Returns an iterator over every address of the ranges, in order.
auto address_iterator(std::vector<address_range> ranges) -> py::iterator;
/// Returns an iterator over the subnets of length new_length of p, in order (p
/// itself when new_length is its length). Precondition: p.length() <= new_length <= p.width().
auto subnet_iterator(const prefix& p, int new_length) -> py::iterator;
/// Returns n as a length for len(); raises OverflowError, pointing at
/// num_addresses, when it is larger than sys.maxsize.
auto length_of(const py::int_& n) -> py::ssize_t;
/// Registers the iterator types (private names).
void register_iterators(py::module_& m);

}  // namespace cidrcheck::python
