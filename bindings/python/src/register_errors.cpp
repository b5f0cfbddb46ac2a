#include "convert.hpp"
#include "register.hpp"

#include <cidrcheck/parse_error.hpp>

namespace cidrcheck::python {

void register_errors(py::module_& m) {
  // The type lives as long as the module, which holds it; the static handle only borrows it.
  static py::handle parse_error_type =
      py::exception<parse_error>(m, "ParseError", PyExc_ValueError).release();
  parse_error_type.attr("__doc__") =
      "Raised for text that is no address, prefix or range. A ValueError, as ipaddress raises;\n"
      ".input is the text and .offset the 0-based position of the first bad character in it.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const parse_error& e) {
      py::object error = parse_error_type(e.what());
      error.attr("input") = to_str(e.input());
      error.attr("offset") = e.offset();
      PyErr_SetObject(parse_error_type.ptr(), error.ptr());
    }
  });
}

}  // namespace cidrcheck::python
