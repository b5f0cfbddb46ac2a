#pragma once
// The loaded fleet that cidrcheck.Fleet wraps: shared by register_fleet.cpp and register_map.cpp.

#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/io/diagnostic.hpp>

#include <memory>
#include <string>
#include <vector>

namespace cidrcheck::python {

/// A fleet as read, with what was read and every diagnostic. Immutable once loaded.
struct fleet_model {
  std::shared_ptr<const fleet> value;
  std::vector<std::string> files;
  std::vector<diagnostic> diagnostics;
};

}  // namespace cidrcheck::python
