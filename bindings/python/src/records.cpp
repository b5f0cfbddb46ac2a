#include "records.hpp"

#include "convert.hpp"

namespace cidrcheck::python {

void python_record_sink::key(std::string_view k) { key_ = to_str(k); }

void python_record_sink::value(std::string_view v) { put(to_str(v)); }

void python_record_sink::put(py::object v) {
  if (stack_.empty()) {
    result_ = std::move(v);
    return;
  }
  auto& top = stack_.back();
  if (py::isinstance<py::dict>(top)) {
    top.cast<py::dict>()[key_] = std::move(v);
  } else {
    top.cast<py::list>().append(std::move(v));
  }
}

}  // namespace cidrcheck::python
