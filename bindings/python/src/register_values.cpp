// Address, Prefix and AddressRange: the value types, with Python ipaddress's names.

#include "convert.hpp"
#include "iterators.hpp"
#include "register.hpp"

#include <cidrcheck/algorithms.hpp>
#include <cidrcheck/special_purpose.hpp>

#include <pybind11/stl.h>

#include <algorithm>
#include <string>
#include <vector>

namespace cidrcheck::python {

namespace {

auto ipaddress(const char* function) -> py::object { return py::module_::import("ipaddress").attr(function); }

auto quoted_repr(const char* type, const std::string& text) -> std::string { return std::string(type) + "('" + text + "')"; }

// ipaddress.IPv4Address.packed: the address's bytes, most significant first.
auto packed(const address& a) -> py::bytes {
  std::string out(static_cast<std::size_t>(a.width() / 8), '\0');
  auto bits = a.bits();
  for (auto it = out.rbegin(); it != out.rend(); ++it, bits >>= 8) *it = static_cast<char>(bits & 0xff);
  return py::bytes(out);
}

auto offset(const address& a, py::int_ delta) -> address {
  // As ipaddress does: the result must stay within the address's version.
  py::int_ bits = to_int(a.bits()) + delta;
  uint128 max = a.is_v4() ? uint128{0xffffffffu} : detail::uint128_max;
  if (bits < py::int_(0) || bits > to_int(max)) {
    throw py::value_error(a.to_string() + " + " + std::string(py::str(delta)) + " is outside IPv" +
                          std::to_string(version_number(a.version())));
  }
  return address::from_bits(a.version(), to_uint128(bits, max, "address"));
}

auto netmask(const prefix& p) -> address {
  if (p.version() == ip_version::v4) return address::v4(detail::network_mask<std::uint32_t>(p.length()));
  return address::v6(detail::network_mask<uint128>(p.length()));
}

auto hostmask(const prefix& p) -> address { return address::from_bits(p.version(), p.last().bits() - p.network().bits()); }

// ipaddress's hosts(): every address but the network and (IPv4) broadcast
// addresses; a /31 or /127 yields both of its addresses and a /32 or /128 its
// one, as ipaddress does (Lib/ipaddress.py, IPv4Network/IPv6Network.__init__).
auto hosts(const prefix& p) -> py::iterator {
  if (p.length() >= p.width() - 1) return address_iterator({address_range(p)});
  auto last = p.version() == ip_version::v4 ? p.last().prev() : p.last();
  return address_iterator({address_range::make(p.network().next(), last)});
}

// ipaddress's exploded: IPv6 as eight groups of four hex digits; IPv4 as it is.
auto exploded(const prefix& p) -> std::string {
  if (p.version() == ip_version::v4) return p.to_string();
  constexpr char hex[] = "0123456789abcdef";
  std::string out;
  auto bits = p.network().bits();
  for (int shift = 124; shift >= 0; shift -= 4) {
    out += hex[static_cast<unsigned>(bits >> shift) & 0xf];
    if (shift % 16 == 0 && shift != 0) out += ':';
  }
  return out + "/" + std::to_string(p.length());
}

// ipaddress's subnets(prefixlen_diff=1, new_prefix=None): the length asked for.
auto subnet_length(const prefix& p, int prefixlen_diff, std::optional<int> new_prefix) -> int {
  if (p.length() == p.width()) return p.length();  // a host prefix yields itself, whatever is asked
  if (new_prefix) {
    if (prefixlen_diff != 1) throw py::value_error("cannot set prefixlen_diff and new_prefix");
    if (*new_prefix < p.length()) throw py::value_error("new prefix must be longer");
    prefixlen_diff = *new_prefix - p.length();
  }
  if (prefixlen_diff < 0) throw py::value_error("prefix length diff must be > 0");
  int length = p.length() + prefixlen_diff;
  if (length > p.width()) {
    throw py::value_error("prefix length diff " + std::to_string(prefixlen_diff) + " is invalid for netblock " +
                          p.to_string());
  }
  return length;
}

// ipaddress's supernet(prefixlen_diff=1, new_prefix=None).
auto supernet(const prefix& p, int prefixlen_diff, std::optional<int> new_prefix) -> prefix {
  if (p.length() == 0) return p;
  if (new_prefix) {
    if (*new_prefix > p.length()) throw py::value_error("new prefix must be shorter");
    if (prefixlen_diff != 1) throw py::value_error("cannot set prefixlen_diff and new_prefix");
    prefixlen_diff = p.length() - *new_prefix;
  }
  int length = p.length() - prefixlen_diff;
  if (length < 0) {
    throw py::value_error("current prefixlen is " + std::to_string(p.length()) + ", cannot have a prefixlen_diff of " +
                          std::to_string(prefixlen_diff));
  }
  return p.supernet(length);
}

auto address_exclude(const prefix& p, const prefix& q) -> py::iterator {
  if (p.version() != q.version()) throw py::type_error(p.to_string() + " and " + q.to_string() + " are not of the same version");
  if (!q.subnet_of(p)) throw py::value_error(q.to_string() + " not contained in " + p.to_string());
  // ipaddress yields one block per level, the largest first.
  auto blocks = exclude(p, q);
  std::stable_sort(blocks.begin(), blocks.end(), [](const prefix& a, const prefix& b) { return a.length() < b.length(); });
  return py::iter(py::cast(blocks));
}

// Membership: an address lies in it; a prefix or range lies wholly in it.
auto contains(const address_range& outer, py::handle item) -> bool {
  if (py::isinstance<address>(item)) return outer.contains(item.cast<address>());
  if (PyUnicode_Check(item.ptr())) {
    auto text = item.cast<std::string>();
    if (text.find('/') != std::string::npos || text.find('-') != std::string::npos) return outer.contains(*try_range(item));
  }
  if (auto a = try_address(item)) return outer.contains(*a);
  if (auto r = try_range(item)) return outer.contains(*r);
  throw py::type_error("'in' needs an address, prefix or range, not " + std::string(py::str(py::type::handle_of(item).attr("__name__"))));
}

template <class T>
auto index_of(const T& value, py::ssize_t index) -> address {
  py::int_ n = count(address_range(value));
  py::int_ i = index < 0 ? n + py::int_(index) : py::int_(index);
  if (i < py::int_(0) || i >= n) throw py::index_error("address index out of range");
  return address::from_bits(value.network().version(), value.network().bits() + to_uint128(i, detail::uint128_max, "index"));
}

template <class Class, class T>
void add_comparisons(Class& c) {
  c.def("__eq__", [](const T& a, const T& b) { return a == b; }, py::is_operator())
      .def("__ne__", [](const T& a, const T& b) { return a != b; }, py::is_operator())
      .def("__lt__", [](const T& a, const T& b) { return a < b; }, py::is_operator())
      .def("__le__", [](const T& a, const T& b) { return a <= b; }, py::is_operator())
      .def("__gt__", [](const T& a, const T& b) { return a > b; }, py::is_operator())
      .def("__ge__", [](const T& a, const T& b) { return a >= b; }, py::is_operator())
      .def("__hash__", [](const T& a) { return static_cast<py::ssize_t>(std::hash<T>{}(a)); });
}

void register_address(py::module_& m) {
  py::class_<address> c(m, "Address", R"(An IPv4 or IPv6 address, like ipaddress.ip_address().

Address('10.0.0.1'), Address('2001:db8::1'), Address(167772161) or
Address(ipaddress.ip_address('10.0.0.1')). Text is strict: no leading zeros in
IPv4 octets, no IPv6 zone. IPv4 and IPv6 never compare equal (::ffff:10.0.0.1 is
not 10.0.0.1); every IPv4 address sorts before every IPv6 one. Immutable and
hashable.)");
  c.def(py::init([](address_like a) { return a.value; }), py::arg("address"))
      .def_property_readonly("version", [](const address& a) { return version_number(a.version()); },
                             "4 or 6.")
      .def_property_readonly("max_prefixlen", &address::width, "32 for IPv4, 128 for IPv6.")
      .def_property_readonly("packed", &packed, "The address as 4 or 16 bytes, network order.")
      .def_property_readonly("is_private", [](const address& a) { return is_private(a); },
                             R"(True when the address lies in a block that the IANA special-purpose registries
mark not globally reachable and in none of the exceptions, as ipaddress says;
an IPv4-mapped address (::ffff:a.b.c.d) answers for a.b.c.d (docs/python.md).)")
      .def_property_readonly("is_global", [](const address& a) { return is_global(a); },
                             "True when the address is not private and not within 100.64.0.0/10, as ipaddress says.")
      .def("__int__", [](const address& a) { return to_int(a.bits()); })
      .def("__add__", [](const address& a, py::int_ d) { return offset(a, d); }, py::is_operator())
      .def("__radd__", [](const address& a, py::int_ d) { return offset(a, d); }, py::is_operator())
      .def("__sub__", [](const address& a, py::int_ d) { return offset(a, py::int_(0) - d); }, py::is_operator())
      .def("__str__", &address::to_string)
      .def("__repr__", [](const address& a) { return quoted_repr("Address", a.to_string()); })
      .def("to_ipaddress", [](const address& a) { return ipaddress("ip_address")(a.to_string()); },
           "Returns the same address as an ipaddress.IPv4Address or IPv6Address.")
      .def(py::pickle([](const address& a) { return a.to_string(); },
                      [](const std::string& text) { return address::parse(text); }));
  add_comparisons<decltype(c), address>(c);
}

void register_prefix(py::module_& m) {
  py::class_<prefix> c(m, "Prefix", R"(A CIDR block, like ipaddress.ip_network(): '10.0.0.0/8', '2001:db8::/32'.

Prefix(text, strict=True) refuses host bits ('10.0.0.1/24' raises ParseError,
whose message suggests 10.0.0.0/24); strict=False clears them. A bare address is
no prefix (the message suggests the /32 or /128). Accepts ipaddress networks.
Relations between IPv4 and IPv6 prefixes are False. 'x in p' is True for an
address in p and, unlike ipaddress, for a prefix or range that lies within p.
Immutable and hashable; ordered by version, address, then length.)");
  c.def(py::init([](const prefix_arg& value, bool strict) {
          auto p = try_prefix(value.value, strict ? host_bits::reject : host_bits::mask);
          if (!p) throw py::type_error("Prefix() takes a str, a Prefix or an ipaddress network, not " +
                                       std::string(py::str(py::type::handle_of(value.value).attr("__name__"))));
          return *p;
        }),
        py::arg("prefix"), py::arg("strict") = true)
      .def_property_readonly("network_address", &prefix::network, "The first address.")
      .def_property_readonly("broadcast_address", &prefix::last, "The last address.")
      .def_property_readonly("prefixlen", &prefix::length, "The prefix length.")
      .def_property_readonly("max_prefixlen", &prefix::width, "32 for IPv4, 128 for IPv6.")
      .def_property_readonly("version", [](const prefix& p) { return version_number(p.version()); }, "4 or 6.")
      .def_property_readonly("num_addresses", [](const prefix& p) { return count(address_range(p)); },
                             "The number of addresses, exactly (2**128 for ::/0).")
      .def_property_readonly("netmask", &netmask, "The network mask as an address (255.255.0.0 for a /16).")
      .def_property_readonly("hostmask", &hostmask,
                             "The host mask as an address (0.0.255.255 for a /16).")
      .def_property_readonly("with_prefixlen", &prefix::to_string, "'10.0.0.0/8'.")
      .def_property_readonly("with_netmask", [](const prefix& p) { return p.network().to_string() + "/" + netmask(p).to_string(); },
                             "'10.0.0.0/255.0.0.0'.")
      .def_property_readonly("with_hostmask", [](const prefix& p) { return p.network().to_string() + "/" + hostmask(p).to_string(); },
                             "'10.0.0.0/0.255.255.255'.")
      .def_property_readonly("compressed", &prefix::to_string, "The canonical text, as str() gives it: '2001:db8::/32'.")
      .def_property_readonly("exploded", &exploded, "IPv6 with every group written out: '2001:0db8:0000:...:0000/32'.")
      .def_property_readonly("is_private", [](const prefix& p) { return is_private(p); },
                             R"(True when the block lies within one that the IANA special-purpose registries
mark not globally reachable and neither end lies in an exception, as
ipaddress says (docs/python.md).)")
      .def_property_readonly("is_global", [](const prefix& p) { return is_global(p); },
                             "True when the block is not private and not within 100.64.0.0/10, as ipaddress says.")
      .def("hosts", &hosts, R"(Yields the usable host addresses, lazily, as ipaddress does: all but the
network address and (IPv4) the broadcast address; every address of a /31 or
/127, the one of a /32 or /128.)")
      .def("overlaps", [](const prefix& p, range_like other) { return address_range(p).overlaps(other.value); },
           py::arg("other"), "Reports whether the two share any address.")
      .def("subnet_of", [](const prefix& p, prefix_like other) { return p.subnet_of(other.value); }, py::arg("other"),
           "Reports whether this block lies within other (True when they are equal).")
      .def("supernet_of", [](const prefix& p, prefix_like other) { return p.supernet_of(other.value); },
           py::arg("other"), "Reports whether other lies within this block (True when they are equal).")
      .def("subnets",
           [](const prefix& p, int prefixlen_diff, std::optional<int> new_prefix) {
             return subnet_iterator(p, subnet_length(p, prefixlen_diff, new_prefix));
           },
           py::arg("prefixlen_diff") = 1, py::arg("new_prefix") = py::none(),
           R"(Yields the blocks of length prefixlen + prefixlen_diff (or new_prefix) that make
up this one, in order, lazily: ::/0 into /128s is fine to start. A /32 (or /128)
yields itself, as ipaddress does.)")
      .def("supernet", &supernet, py::arg("prefixlen_diff") = 1, py::arg("new_prefix") = py::none(),
           "Returns the block prefixlen_diff bits shorter (or of length new_prefix) that holds this one; /0 returns itself.")
      .def("address_exclude", [](const prefix& p, prefix_like other) { return address_exclude(p, other.value); },
           py::arg("other"), R"(Yields the blocks that make up this one minus other, the largest first, as
ipaddress does. Raises ValueError when other is not within this block, and
TypeError when it is of the other version.)")
      .def("__contains__", [](const prefix& p, const member_arg& item) { return contains(address_range(p), item.value); })
      .def("__iter__", [](const prefix& p) { return address_iterator({address_range(p)}); })
      .def("__len__", [](const prefix& p) { return length_of(count(address_range(p))); })
      .def("__getitem__", [](const prefix& p, py::ssize_t i) { return index_of(p, i); })
      .def("__str__", &prefix::to_string)
      .def("__repr__", [](const prefix& p) { return quoted_repr("Prefix", p.to_string()); })
      .def("to_ipaddress", [](const prefix& p) { return ipaddress("ip_network")(p.to_string()); },
           "Returns the same block as an ipaddress.IPv4Network or IPv6Network.")
      .def(py::pickle([](const prefix& p) { return p.to_string(); },
                      [](const std::string& text) { return prefix::parse(text); }));
  add_comparisons<decltype(c), prefix>(c);
}

void register_range(py::module_& m) {
  py::class_<address_range> c(m, "AddressRange", R"(An inclusive range of addresses of one version, first through last.

AddressRange('10.0.0.0-10.0.0.255'), AddressRange(first, last), or
AddressRange(prefix). Never empty. Immutable and hashable; ordered by (first, last).)");
  c.def(py::init([](range_like r) { return r.value; }), py::arg("range"))
      .def(py::init([](address_like first, address_like last) { return address_range::make(first.value, last.value); }),
           py::arg("first"), py::arg("last"))
      .def_property_readonly("first", &address_range::first)
      .def_property_readonly("last", &address_range::last)
      .def_property_readonly("version", [](const address_range& r) { return version_number(r.version()); }, "4 or 6.")
      .def_property_readonly("num_addresses", [](const address_range& r) { return count(r); },
                             "The number of addresses, exactly.")
      .def("overlaps", [](const address_range& r, range_like other) { return r.overlaps(other.value); },
           py::arg("other"), "Reports whether the two share any address.")
      .def("to_prefixes", &address_range::to_prefixes,
           "Returns the minimal list of prefixes that cover the range (summarize_address_range).")
      .def("to_prefix", &address_range::to_prefix, "Returns the prefix that is exactly this range, or None.")
      .def("__contains__", [](const address_range& r, const member_arg& item) { return contains(r, item.value); })
      .def("__iter__", [](const address_range& r) { return address_iterator({r}); })
      .def("__len__", [](const address_range& r) { return length_of(count(r)); })
      .def("__str__", &address_range::to_string)
      .def("__repr__", [](const address_range& r) { return quoted_repr("AddressRange", r.to_string()); })
      .def(py::pickle([](const address_range& r) { return r.to_string(); },
                      [](const std::string& text) { return address_range::parse(text); }));
  add_comparisons<decltype(c), address_range>(c);
}

}  // namespace

void register_values(py::module_& m) {
  register_iterators(m);
  register_address(m);
  register_prefix(m);
  register_range(m);
}

}  // namespace cidrcheck::python
