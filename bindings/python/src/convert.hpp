#pragma once
// Conversions between Python objects and cidrcheck values, shared by every
// register_*.cpp. Arguments are taken through "like" types whose casters accept
// the cidrcheck type, a plain string and the matching ipaddress object, so that
// every function takes all three and help() names them.

#include <cidrcheck/address.hpp>
#include <cidrcheck/address_range.hpp>
#include <cidrcheck/address_set.hpp>
#include <cidrcheck/prefix.hpp>

#include <pybind11/pybind11.h>

#include <optional>

namespace cidrcheck::python {

namespace py = pybind11;

/// An argument that is an Address, a str, an int or an ipaddress address.
struct address_like {
  address value;
};
/// An argument that is a Prefix, a str or an ipaddress network.
struct prefix_like {
  prefix value;
};
/// An argument that is an AddressRange, a Prefix, a str ("first-last" or a CIDR) or an ipaddress network.
struct range_like {
  address_range value;
};
/// An argument that is an AddressSet, one value of any kind, or an iterable of values.
struct set_like {
  address_set value;
};

/// Arguments taken as they are and converted by the function (which needs more
/// than a caster knows: Prefix's strict flag, membership of any kind of value);
/// the types only give help() the accepted types' names.
struct prefix_arg {
  py::object value;
};
struct member_arg {
  py::object value;
};
struct values_arg {
  py::object value;
};

/// Returns the address h stands for, or nullopt when h is of no address type.
/// Throws parse_error for a string that is no address, ValueError for an int out of range.
auto try_address(py::handle h) -> std::optional<address>;
/// Returns the prefix h stands for, or nullopt when h is of no prefix type. Throws parse_error.
auto try_prefix(py::handle h, host_bits mode = host_bits::reject) -> std::optional<prefix>;
/// Returns the range h stands for (a prefix is its range), or nullopt. Throws parse_error.
auto try_range(py::handle h) -> std::optional<address_range>;

/// Adds one value of any kind (address, prefix, range, set, or their text) to b.
/// Returns false when h is of none of these types. Throws parse_error.
auto add_value(address_set_builder& b, py::handle h, host_bits mode) -> bool;
/// Adds a value, or every value of an iterable, to b. Lists and tuples of
/// strings take a fast path without a Python call per item. Throws parse_error,
/// or TypeError for an item of no address type.
void add_values(address_set_builder& b, py::handle h, host_bits mode);

/// Returns v as a Python int.
auto to_int(uint128 v) -> py::int_;
/// Returns 2**k as a Python int (k up to 128 and beyond).
auto power_of_two(int k) -> py::int_;
/// Returns the exact number of addresses in [first, last] as a Python int (2**128 for all of IPv6).
auto count(const address_range& r) -> py::int_;
/// Returns the exact number of addresses in a set as a Python int.
auto count(const address_set& s) -> py::int_;
/// Returns the value of a Python int that must be in [0, max]; throws ValueError naming what otherwise.
auto to_uint128(py::handle h, uint128 max, const char* what) -> uint128;

/// Returns the version as Python's ipaddress numbers it: 4 or 6.
inline auto version_number(ip_version v) -> int { return static_cast<int>(v); }
/// Returns the ip_version of 4 or 6; throws ValueError for anything else.
auto to_version(int number) -> ip_version;

/// Returns a str decoded from UTF-8, with invalid bytes replaced (never throws for bad bytes).
auto to_str(std::string_view text) -> py::str;

}  // namespace cidrcheck::python

namespace pybind11::detail {

#define CIDRCHECK_LIKE_CASTER(type, name, convert)                                                  \
  template <>                                                                                       \
  struct type_caster<cidrcheck::python::type> {                                                     \
    PYBIND11_TYPE_CASTER(cidrcheck::python::type, const_name(name));                                \
    bool load(handle src, bool) {                                                                   \
      auto converted = convert;                                                                     \
      if (!converted) return false;                                                                 \
      value.value = *converted;                                                                     \
      return true;                                                                                  \
    }                                                                                               \
  }

CIDRCHECK_LIKE_CASTER(address_like, "Address | str | int | ipaddress.IPv4Address | ipaddress.IPv6Address",
                      cidrcheck::python::try_address(src));
CIDRCHECK_LIKE_CASTER(prefix_like, "Prefix | str | ipaddress.IPv4Network | ipaddress.IPv6Network",
                      cidrcheck::python::try_prefix(src));
CIDRCHECK_LIKE_CASTER(range_like, "AddressRange | Prefix | str | ipaddress.IPv4Network | ipaddress.IPv6Network",
                      cidrcheck::python::try_range(src));

#undef CIDRCHECK_LIKE_CASTER

#define CIDRCHECK_OBJECT_CASTER(type, name)                                   \
  template <>                                                                 \
  struct type_caster<cidrcheck::python::type> {                               \
    PYBIND11_TYPE_CASTER(cidrcheck::python::type, const_name(name));          \
    bool load(handle src, bool) {                                             \
      value.value = reinterpret_borrow<object>(src);                          \
      return true;                                                            \
    }                                                                         \
  }

CIDRCHECK_OBJECT_CASTER(prefix_arg, "Prefix | str | ipaddress.IPv4Network | ipaddress.IPv6Network");
CIDRCHECK_OBJECT_CASTER(member_arg, "AddressLike | PrefixLike | RangeLike");
CIDRCHECK_OBJECT_CASTER(values_arg, "AddressSet | Iterable[AddressLike | PrefixLike | RangeLike] | AddressLike");

#undef CIDRCHECK_OBJECT_CASTER

template <>
struct type_caster<cidrcheck::python::set_like> {
  PYBIND11_TYPE_CASTER(cidrcheck::python::set_like, const_name("AddressSet | Iterable[AddressLike] | AddressLike"));
  bool load(handle src, bool) {
    if (isinstance<cidrcheck::address_set>(src)) {
      value.value = src.cast<cidrcheck::address_set>();  // shares the storage
      return true;
    }
    cidrcheck::address_set_builder b;
    cidrcheck::python::add_values(b, src, cidrcheck::host_bits::reject);
    value.value = b.build();
    return true;
  }
};

}  // namespace pybind11::detail
