#pragma once
// Writing a fleet as a fleet file (docs/fleet-format.md), for `cidrcheck import`.

#include <cidrcheck/fleet/fleet.hpp>

#include <span>
#include <string>

namespace cidrcheck {

/// Returns the fleet as a fleet file (version 1) that reads back as the same
/// fleet: every owner with the ranges its sources declared (ranges filled in
/// from the catalog are left out, for the reader to fill in again), explicitly
/// empty roles as `[]`, and every connection. After each value a comment names
/// where it was read ("# vpcs.json:12:27"), and each source_conflict is a
/// comment under the ranges kept. `header` lines open the file as comments.
auto write_fleet_yaml(const fleet& f, std::span<const std::string> header = {}) -> std::string;

}  // namespace cidrcheck
