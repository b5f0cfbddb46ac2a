#include "iterators.hpp"

#include <utility>

namespace cidrcheck::python {

namespace {

class address_walk {
 public:
  explicit address_walk(std::vector<address_range> ranges) : ranges_(std::move(ranges)) {
    if (!ranges_.empty()) next_ = ranges_.front().first();
  }
  auto next() -> address {
    if (index_ >= ranges_.size()) throw py::stop_iteration();
    address out = next_;
    if (out == ranges_[index_].last()) {
      if (++index_ < ranges_.size()) next_ = ranges_[index_].first();
    } else {
      next_ = out.next();
    }
    return out;
  }

 private:
  std::vector<address_range> ranges_;
  std::size_t index_ = 0;
  address next_;
};

class subnet_walk {
 public:
  subnet_walk(const prefix& p, int new_length) : subnets_(p.subnets(new_length)) {}
  auto next() -> prefix {
    if (done_) throw py::stop_iteration();
    auto out = subnets_[index_];
    if (index_ == last_index()) done_ = true;
    else ++index_;
    return out;
  }

 private:
  // Counts are powers of two, so a saturated size() means 2^128 subnets, whose last index is 2^128 - 1.
  auto last_index() const -> uint128 {
    auto n = subnets_.size();
    return n == detail::uint128_max ? n : n - 1;
  }
  subnet_range subnets_;
  uint128 index_ = 0;
  bool done_ = false;
};

}  // namespace

auto address_iterator(std::vector<address_range> ranges) -> py::iterator {
  return py::reinterpret_steal<py::iterator>(py::cast(address_walk(std::move(ranges))).release());
}

auto subnet_iterator(const prefix& p, int new_length) -> py::iterator {
  return py::reinterpret_steal<py::iterator>(py::cast(subnet_walk(p, new_length)).release());
}

auto length_of(const py::int_& n) -> py::ssize_t {
  if (n > py::int_(PY_SSIZE_T_MAX)) {
    PyErr_SetString(PyExc_OverflowError, ("len() of " + py::str(static_cast<const py::handle&>(n)).cast<std::string>() +
                                          " addresses does not fit in sys.maxsize; use num_addresses").c_str());
    throw py::error_already_set();
  }
  return n.cast<py::ssize_t>();
}

void register_iterators(py::module_& m) {
  py::class_<address_walk>(m, "_AddressIterator")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &address_walk::next);
  py::class_<subnet_walk>(m, "_SubnetIterator")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &subnet_walk::next);
}

}  // namespace cidrcheck::python
