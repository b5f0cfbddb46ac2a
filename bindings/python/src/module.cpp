// cidrcheck._core: the compiled half of the cidrcheck Python package. This file
// only wires the parts together; each concept registers itself in its own file.

#include "interruptible.hpp"
#include "register.hpp"

#include <cidrcheck/version.hpp>

PYBIND11_MODULE(_core, m) {
  m.doc() = "The compiled core of cidrcheck; import cidrcheck, not this module.";
  m.attr("__version__") = cidrcheck::version_string;
  cidrcheck::python::register_errors(m);
  cidrcheck::python::register_values(m);
  cidrcheck::python::register_sets(m);
  cidrcheck::python::register_fleet(m);
  cidrcheck::python::register_plan(m);
  cidrcheck::python::register_map(m);
  // A plan Ctrl-C interrupted runs on in a detached worker; exit waits for it.
  pybind11::module_::import("atexit").attr("register")(
      pybind11::cpp_function(&cidrcheck::python::wait_for_detached_workers));
}
