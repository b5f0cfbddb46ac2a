#pragma once
// Writing a fleet as a fleet file (docs/fleet-format.md), for `cidrcheck import`.

#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/suppression.hpp>

#include <span>
#include <string>

namespace cidrcheck {

/// Returns the fleet as a fleet file (version 1) that reads back as the same
/// fleet: every owner with every key the fleet format has (the ranges its
/// sources declared, requested sizes, cni, ...; ranges filled in from the
/// catalog are left out, for the reader to fill in again), explicitly empty
/// roles as `[]`, every connection, the `plan:` settings, and `suppressions`
/// (those the fleet files gave: the fleet model does not hold them). After each
/// value a comment names where it was read ("# vpcs.json:12:27"), and each
/// source_conflict is a comment under the ranges kept. `header` lines open the
/// file as comments.
auto write_fleet_yaml(const fleet& f, std::span<const std::string> header = {},
                      std::span<const suppression> suppressions = {}) -> std::string;

}  // namespace cidrcheck
