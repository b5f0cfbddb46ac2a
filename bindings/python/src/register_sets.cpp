// AddressSet (and its builder), PrefixAllocator, and ipaddress's collapse and summarize functions.

#include "convert.hpp"
#include "iterators.hpp"
#include "register.hpp"

#include <cidrcheck/algorithms.hpp>
#include <cidrcheck/prefix_allocator.hpp>

#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cidrcheck::python {

namespace {

auto build(py::handle values, host_bits mode = host_bits::reject) -> address_set {
  address_set_builder b;
  add_values(b, values, mode);
  return b.build();
}

auto has_version(const address_set& s, ip_version v) -> bool { return !s.only(v).empty(); }

// The version an operation on free space means: the one asked for, else the
// only one the space holds. Both without a choice is a ValueError.
auto pick_version(std::optional<int> version, bool v4, bool v6) -> ip_version {
  if (version) return to_version(*version);
  if (v4 && v6) throw py::value_error("the space holds IPv4 and IPv6 addresses: pass version=4 or version=6");
  return v6 ? ip_version::v6 : ip_version::v4;
}

auto check_length(int prefixlen, ip_version v) -> int {
  if (prefixlen < 0 || prefixlen > bit_width(v)) {
    throw py::value_error("prefix length " + std::to_string(prefixlen) + " is not in [0, " + std::to_string(bit_width(v)) +
                          "] for IPv" + std::to_string(version_number(v)));
  }
  return prefixlen;
}

auto set_repr(const address_set& s) -> std::string {
  constexpr std::size_t shown = 8;
  auto prefixes = s.prefixes();
  std::string out = "AddressSet([";
  for (std::size_t k = 0; k < prefixes.size() && k < shown; ++k) out += (k ? ", '" : "'") + prefixes[k].to_string() + "'";
  if (prefixes.size() > shown) out += ", ... " + std::to_string(prefixes.size() - shown) + " more";
  return out + "])";
}

// Membership of one value: an address, or every address of a prefix or range.
auto set_contains(const address_set& s, py::handle item) -> bool {
  if (py::isinstance<address_set>(item)) return (item.cast<const address_set&>() - s).empty();
  if (PyUnicode_Check(item.ptr()) || py::isinstance<address>(item)) {
    address_set_builder b;
    add_values(b, item, host_bits::reject);
    return (b.build() - s).empty();
  }
  if (auto a = try_address(item)) return s.contains(*a);
  if (auto r = try_range(item)) return s.contains(*r);
  throw py::type_error("'in' needs an address, prefix, range or address set, not " +
                       std::string(py::str(py::type::handle_of(item).attr("__name__"))));
}

// Applies op to the set and each other iterable in turn, as set.union(*others) does.
template <class Op>
auto fold(const address_set& s, const py::args& others, Op op) -> address_set {
  address_set out = s;
  for (auto other : others) out = op(out, build(other));
  return out;
}

void register_set(py::module_& m) {
  py::class_<address_set> c(m, "AddressSet", R"(An immutable set of IPv4 and IPv6 addresses, kept as merged ranges.

AddressSet(values=(), strict=True) takes any iterable of addresses, prefixes,
ranges ('10.0.0.0-10.0.0.9'), sets, their text, or ipaddress objects; a list of a
million strings builds in well under a second. strict=False clears host bits.
Operators | & - ^ combine two AddressSets; the named methods (union, ...) take any
iterables. 'x in s' is True when every address of x is in s. len() and iteration
are over addresses; ranges() and prefixes() give the compact forms. Equal sets
compare and hash equal however they were built; <= and < are subset tests.
Copies share storage, so a set is cheap to pass around and safe across threads.)");
  c.def(py::init([](const values_arg& values, bool strict) {
          return build(values.value, strict ? host_bits::reject : host_bits::mask);
        }),
        py::arg("values") = py::tuple(), py::arg("strict") = true)
      .def("__or__", [](const address_set& a, const address_set& b) { return a | b; }, py::is_operator())
      .def("__and__", [](const address_set& a, const address_set& b) { return a & b; }, py::is_operator())
      .def("__sub__", [](const address_set& a, const address_set& b) { return a - b; }, py::is_operator())
      .def("__xor__", [](const address_set& a, const address_set& b) { return a ^ b; }, py::is_operator())
      .def("__eq__", [](const address_set& a, const address_set& b) { return a == b; }, py::is_operator())
      .def("__ne__", [](const address_set& a, const address_set& b) { return !(a == b); }, py::is_operator())
      .def("__le__", [](const address_set& a, const address_set& b) { return (a - b).empty(); }, py::is_operator())
      .def("__lt__", [](const address_set& a, const address_set& b) { return (a - b).empty() && !(a == b); },
           py::is_operator())
      .def("__ge__", [](const address_set& a, const address_set& b) { return (b - a).empty(); }, py::is_operator())
      .def("__gt__", [](const address_set& a, const address_set& b) { return (b - a).empty() && !(a == b); },
           py::is_operator())
      .def("__hash__", [](const address_set& s) { return static_cast<py::ssize_t>(std::hash<address_set>{}(s)); })
      .def("union", [](const address_set& s, const py::args& others) { return fold(s, others, std::bit_or<>{}); },
           "Returns the addresses in the set or any of the others.")
      .def("intersection", [](const address_set& s, const py::args& others) { return fold(s, others, std::bit_and<>{}); },
           "Returns the addresses in the set and every one of the others.")
      .def("difference", [](const address_set& s, const py::args& others) { return fold(s, others, std::minus<>{}); },
           "Returns the addresses in the set and in none of the others.")
      .def("symmetric_difference", [](const address_set& s, set_like other) { return s ^ other.value; }, py::arg("other"),
           "Returns the addresses in exactly one of the two.")
      .def("issubset", [](const address_set& s, set_like other) { return (s - other.value).empty(); }, py::arg("other"))
      .def("issuperset", [](const address_set& s, set_like other) { return (other.value - s).empty(); }, py::arg("other"))
      .def("isdisjoint", [](const address_set& s, set_like other) { return !s.overlaps(other.value); }, py::arg("other"))
      .def("overlaps", [](const address_set& s, set_like other) { return s.overlaps(other.value); }, py::arg("other"),
           "Reports whether the two share any address.")
      .def("__contains__", [](const address_set& s, const member_arg& item) { return set_contains(s, item.value); })
      .def("__bool__", [](const address_set& s) { return !s.empty(); })
      .def("__len__", [](const address_set& s) { return length_of(count(s)); })
      .def_property_readonly("num_addresses", [](const address_set& s) { return count(s); },
                             "The number of addresses, exactly.")
      .def("__iter__", [](const address_set& s) { return address_iterator(s.ranges()); })
      .def("ranges", &address_set::ranges, "Returns the maximal ranges, IPv4 first, in address order.")
      .def("prefixes", &address_set::prefixes,
           "Returns the minimal list of prefixes that cover the set, in order (collapse_addresses).")
      .def("only", [](const address_set& s, int version) { return s.only(to_version(version)); }, py::arg("version"),
           "Returns the part of the set of one version (4 or 6).")
      .def("take_free",
           [](const address_set& s, int prefixlen, std::optional<int> version) {
             auto v = pick_version(version, has_version(s, ip_version::v4), has_version(s, ip_version::v6));
             prefix_allocator free(s);
             auto block = free.take(v, check_length(prefixlen, v));
             return std::make_pair(block, block ? s - address_set{*block} : s);
           },
           py::arg("prefixlen"), py::arg("version") = py::none(),
           R"(Treats the set as free space and takes one /prefixlen from it by best fit
(netipx's RemoveFreePrefix): returns (prefix, the rest), or (None, the set)
when no block fits. For many takes, a PrefixAllocator is faster.)")
      .def("__repr__", &set_repr)
      .def(py::pickle(
          [](const address_set& s) {
            std::vector<std::string> out;
            for (const auto& r : s.ranges()) out.push_back(r.to_string());
            return out;
          },
          [](const std::vector<std::string>& ranges) {
            address_set_builder b;
            for (const auto& r : ranges) b.add(address_range::parse(r));
            return b.build();
          }));

  py::class_<address_set_builder>(m, "AddressSetBuilder", R"(Builds an AddressSet from adds and removes in any order.

Adds are buffered and merged in one sort, so adding n values costs O(n log n).
build() returns the set so far; the builder stays usable.)")
      .def(py::init<>())
      .def("add", [](address_set_builder& b, const values_arg& values, bool strict) {
             add_values(b, values.value, strict ? host_bits::reject : host_bits::mask);
           },
           py::arg("values"), py::arg("strict") = true,
           "Adds a value (address, prefix, range, set, or text) or every value of an iterable.")
      .def("remove", [](address_set_builder& b, const values_arg& values) { b.remove(build(values.value)); },
           py::arg("values"),
           "Removes a value or every value of an iterable (whatever of it is in the set).")
      .def("build", &address_set_builder::build, "Returns the set of everything added and not removed since.");
}

// The allocator remembers which families its free space had at the start, to pick a default version.
struct allocator {
  prefix_allocator value;
  bool v4, v6;
  auto version(std::optional<int> v) const -> ip_version { return pick_version(v, v4, v6); }
};

void register_allocator(py::module_& m) {
  py::class_<allocator>(m, "PrefixAllocator", R"(Hands out free prefixes from a free space by best fit.

PrefixAllocator(free) takes the free space (for example pool - used). take(L)
picks the smallest free block that can hold a /L, the lowest address among
equals, and carves the /L from its start: the choice netipx's RemoveFreePrefix
makes, so plans stay compact. Each take costs O(W log n), never a rescan. Where
the space holds both versions, pass version=4 or version=6.)")
      .def(py::init([](set_like free) {
             return allocator{prefix_allocator(free.value), has_version(free.value, ip_version::v4),
                              has_version(free.value, ip_version::v6)};
           }),
           py::arg("free"))
      .def("take",
           [](allocator& a, int prefixlen, std::optional<int> version) {
             auto v = a.version(version);
             return a.value.take(v, check_length(prefixlen, v));
           },
           py::arg("prefixlen"), py::arg("version") = py::none(),
           "Takes a free /prefixlen by best fit and returns it, or None when no free block holds one.")
      .def("reserve", [](allocator& a, set_like space) { a.value.reserve(space.value); }, py::arg("space"),
           "Removes space (an address, prefix, range, set or iterable of them) from the free space.")
      .def("count_fitting",
           [](const allocator& a, int prefixlen, std::optional<int> version) {
             auto v = a.version(version);
             auto n = a.value.count_fitting(v, check_length(prefixlen, v));
             if (n != detail::uint128_max) return to_int(n);
             // Saturated: only all of IPv6 in /128s gets there; count exactly from the free blocks.
             py::int_ exact(0);
             for (const auto& p : a.value.free_space().only(v).prefixes()) {
               if (p.length() <= prefixlen) exact = exact + power_of_two(prefixlen - p.length());
             }
             return exact;
           },
           py::arg("prefixlen"), py::arg("version") = py::none(),
           "Returns how many disjoint /prefixlen blocks still fit in the free space.")
      .def("largest", [](const allocator& a, std::optional<int> version) { return a.value.largest(a.version(version)); },
           py::arg("version") = py::none(), "Returns the largest free block (lowest address among equals), or None.")
      .def("free_space", [](const allocator& a) { return a.value.free_space(); }, "Returns the free space left.");
}

}  // namespace

void register_sets(py::module_& m) {
  register_set(m);
  register_allocator(m);
  m.def("collapse_addresses", [](set_like values) { return py::iter(py::cast(values.value.prefixes())); },
        py::arg("addresses"),
        R"(Yields the minimal prefixes that cover the union of the values (addresses,
prefixes, ranges or their text), in order, IPv4 first, like ipaddress's.)");
  m.def(
      "summarize_address_range",
      [](address_like first, address_like last) {
        if (first.value.version() != last.value.version()) {
          throw py::type_error(first.value.to_string() + " and " + last.value.to_string() + " are not of the same version");
        }
        return py::iter(py::cast(summarize(first.value, last.value)));
      },
      py::arg("first"), py::arg("last"),
      "Yields the minimal prefixes that cover first through last, in order, like ipaddress's.");
}

}  // namespace cidrcheck::python
