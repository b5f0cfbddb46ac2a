#pragma once
// The library's records (cidrcheck/records.hpp) as Python data: a record_sink
// that builds dicts, lists, str, int, bool and None, so that a Python record
// is the JSON object `cidrcheck check|plan --format json` writes, key for key.

#include <cidrcheck/records.hpp>

#include <pybind11/pybind11.h>

#include <string_view>
#include <vector>

namespace cidrcheck::python {

namespace py = pybind11;

/// Builds the Python value of one record. Needs the GIL.
class python_record_sink final : public record_sink {
 public:
  void begin_object() override { open(py::dict()); }
  void end_object() override { stack_.pop_back(); }
  void begin_array() override { open(py::list()); }
  void end_array() override { stack_.pop_back(); }
  void key(std::string_view k) override;
  void value(std::string_view v) override;
  void value(std::uint64_t v) override { put(py::int_(v)); }
  void value(std::int64_t v) override { put(py::int_(v)); }
  void value(bool v) override { put(py::bool_(v)); }
  void null() override { put(py::none()); }
  using record_sink::value;

  /// Returns the value written (the last one at the top level).
  auto result() const -> py::object { return result_; }

 private:
  void put(py::object v);
  void open(py::object container) {
    put(container);
    stack_.push_back(std::move(container));
  }
  std::vector<py::object> stack_;
  py::object key_;
  py::object result_ = py::none();
};

/// Returns the record write(sink) writes, as Python data.
template <class Write>
auto python_record(Write write) -> py::object {
  python_record_sink sink;
  write(sink);
  return sink.result();
}

}  // namespace cidrcheck::python
