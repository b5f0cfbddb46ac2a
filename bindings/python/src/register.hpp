#pragma once
// The registration functions of cidrcheck._core, one per concept (register_*.cpp).

#include <pybind11/pybind11.h>

namespace cidrcheck::python {

/// ParseError, a ValueError with .offset and .input, raised for every bad address, prefix or range.
void register_errors(pybind11::module_& m);
/// Address, Prefix, AddressRange.
void register_values(pybind11::module_& m);
/// AddressSet, AddressSetBuilder, PrefixAllocator, collapse_addresses, summarize_address_range.
void register_sets(pybind11::module_& m);
/// The fleet model: loading, check, capacity (wrapped by cidrcheck.Fleet).
void register_fleet(pybind11::module_& m);
/// Planning: the plan as plain data, the planned fleet, the fleet file with the plan applied.
void register_plan(pybind11::module_& m);
/// The fleet map's layout, its palette and its SVG (drawn by cidrcheck.plot).
void register_map(pybind11::module_& m);

}  // namespace cidrcheck::python
