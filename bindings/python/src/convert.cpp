#include "convert.hpp"

#include <cstring>
#include <string>
#include <string_view>

namespace cidrcheck::python {

namespace {

// Returns the UTF-8 text of a str without copying it.
auto utf8(py::handle h) -> std::string_view {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(h.ptr(), &size);
  if (data == nullptr) throw py::error_already_set();
  return {data, static_cast<std::size_t>(size)};
}

// Reports whether h is an object of Python's ipaddress module (IPv4Address,
// IPv6Network, ...): those convert through their canonical text.
auto from_ipaddress(py::handle h) -> bool {
  auto module = py::type::handle_of(h).attr("__module__");
  return py::isinstance<py::str>(module) && utf8(module) == "ipaddress";
}

auto text_of(py::handle h) -> std::string { return py::str(h).cast<std::string>(); }

// Adds the value a text stands for: a prefix ("/"), a range ("-") or an address.
void add_text(address_set_builder& b, std::string_view text, host_bits mode) {
  if (text.find('/') != std::string_view::npos) {
    auto p = prefix::try_parse(text, mode);
    b.add(p ? *p : prefix::parse(text, mode));
  } else if (text.find('-') != std::string_view::npos) {
    auto r = address_range::try_parse(text);
    b.add(r ? *r : address_range::parse(text));
  } else {
    auto a = address::try_parse(text);
    b.add(a ? *a : address::parse(text));
  }
}

[[noreturn]] void not_an_address_value(py::handle h) {
  throw py::type_error("expected an address, prefix, range or address set (an object or its text), not " +
                       std::string(py::str(py::type::handle_of(h).attr("__name__"))));
}

}  // namespace

auto try_address(py::handle h) -> std::optional<address> {
  if (py::isinstance<address>(h)) return h.cast<address>();
  if (PyUnicode_Check(h.ptr())) return address::parse(utf8(h));
  if (PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr())) {
    // As ipaddress.ip_address does: below 2**32 an IPv4 address, else IPv6.
    auto bits = to_uint128(h, detail::uint128_max, "an address as an int");
    return bits <= 0xffffffffu ? address::v4(static_cast<std::uint32_t>(bits)) : address::v6(bits);
  }
  if (from_ipaddress(h) && py::hasattr(h, "packed") && !py::hasattr(h, "network")) return address::parse(text_of(h));
  return std::nullopt;
}

auto try_prefix(py::handle h, host_bits mode) -> std::optional<prefix> {
  if (py::isinstance<prefix>(h)) return h.cast<prefix>();
  if (PyUnicode_Check(h.ptr())) return prefix::parse(utf8(h), mode);
  if (from_ipaddress(h) && py::hasattr(h, "prefixlen")) return prefix::parse(text_of(h), mode);
  return std::nullopt;
}

auto try_range(py::handle h) -> std::optional<address_range> {
  if (py::isinstance<address_range>(h)) return h.cast<address_range>();
  if (py::isinstance<prefix>(h)) return address_range(h.cast<prefix>());
  if (PyUnicode_Check(h.ptr())) {
    auto text = utf8(h);
    if (text.find('/') != std::string_view::npos) return address_range(prefix::parse(text));
    return address_range::parse(text);
  }
  if (auto p = try_prefix(h)) return address_range(*p);
  return std::nullopt;
}

auto add_value(address_set_builder& b, py::handle h, host_bits mode) -> bool {
  if (PyUnicode_Check(h.ptr())) {
    add_text(b, utf8(h), mode);
  } else if (py::isinstance<address_set>(h)) {
    b.add(h.cast<const address_set&>());
  } else if (py::isinstance<prefix>(h)) {
    b.add(h.cast<prefix>());
  } else if (py::isinstance<address_range>(h)) {
    b.add(h.cast<address_range>());
  } else if (py::isinstance<address>(h)) {
    b.add(h.cast<address>());
  } else if (from_ipaddress(h) && (py::hasattr(h, "prefixlen") || py::hasattr(h, "packed"))) {
    add_text(b, text_of(h), mode);
  } else {
    return false;
  }
  return true;
}

void add_values(address_set_builder& b, py::handle h, host_bits mode) {
  if (add_value(b, h, mode)) return;
  if (PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) {
    // The fast path for a million strings: no iterator protocol, no casts.
    PyObject** items = PySequence_Fast_ITEMS(h.ptr());
    Py_ssize_t n = PySequence_Fast_GET_SIZE(h.ptr());
    for (Py_ssize_t k = 0; k < n; ++k) {
      py::handle item(items[k]);
      if (PyUnicode_Check(item.ptr())) {
        add_text(b, utf8(item), mode);
      } else if (!add_value(b, item, mode)) {
        not_an_address_value(item);
      }
    }
    return;
  }
  if (!py::isinstance<py::iterable>(h)) not_an_address_value(h);
  for (auto item : py::iter(h)) {
    if (!add_value(b, item, mode)) not_an_address_value(item);
  }
}

auto to_int(uint128 v) -> py::int_ {
  auto hi = static_cast<unsigned long long>(v >> 64), lo = static_cast<unsigned long long>(v);
  if (hi == 0) return py::int_(lo);
  auto out = py::reinterpret_steal<py::object>(PyNumber_Lshift(py::int_(hi).ptr(), py::int_(64).ptr()));
  if (!out) throw py::error_already_set();
  out = py::reinterpret_steal<py::object>(PyNumber_Or(out.ptr(), py::int_(lo).ptr()));
  if (!out) throw py::error_already_set();
  return py::reinterpret_borrow<py::int_>(out);
}

auto power_of_two(int k) -> py::int_ {
  auto out = py::reinterpret_steal<py::int_>(PyNumber_Lshift(py::int_(1).ptr(), py::int_(k).ptr()));
  if (!out) throw py::error_already_set();
  return out;
}

auto count(const address_range& r) -> py::int_ {
  // last - first fits in 128 bits; the count is one more, which for all of IPv6 does not.
  return to_int(r.last().bits() - r.first().bits()) + py::int_(1);
}

auto count(const address_set& s) -> py::int_ {
  // Per family, the spans (each range's size - 1) add up to less than 2^width,
  // so their sum cannot overflow; the range count makes up the difference.
  uint128 spans[2] = {0, 0};
  s.for_each_range([&](const address_range& r) { spans[r.version() == ip_version::v6] += r.last().bits() - r.first().bits(); });
  return to_int(spans[0]) + to_int(spans[1]) + py::int_(s.range_count());
}

auto to_uint128(py::handle h, uint128 max, const char* what) -> uint128 {
  py::int_ value = py::reinterpret_borrow<py::object>(h);
  if (value < py::int_(0) || value > to_int(max)) {
    throw py::value_error(std::string(what) + " out of range: " + std::string(py::str(h)));
  }
  auto lo = PyLong_AsUnsignedLongLongMask(value.ptr());
  auto shifted = py::reinterpret_steal<py::object>(PyNumber_Rshift(value.ptr(), py::int_(64).ptr()));
  if (!shifted) throw py::error_already_set();
  auto hi = PyLong_AsUnsignedLongLongMask(shifted.ptr());
  return (uint128{hi} << 64) | lo;
}

auto to_version(int number) -> ip_version {
  if (number == 4) return ip_version::v4;
  if (number == 6) return ip_version::v6;
  throw py::value_error("version must be 4 or 6, not " + std::to_string(number));
}

auto to_str(std::string_view text) -> py::str {
  auto out = py::reinterpret_steal<py::str>(
      PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace"));
  if (!out) throw py::error_already_set();
  return out;
}

}  // namespace cidrcheck::python
