#pragma once
// A plan's overlay: the `renumber:` list of a fleet file, which `cidrcheck plan
// --format yaml` writes for fleets read from several sources (imports, several
// files). Each entry moves one range (or fills one requested size, or moves a
// DNS address) of an owner another source describes; read beside those
// sources, the fleet is the planned one (docs/planning.md).

#include "yaml_reader.hpp"

#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/io/diagnostic.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace cidrcheck::detail {

/// One entry: `{owner: NAME, role: ROLE, from: OLD, to: NEW}`, or `{owner: NAME,
/// role: ROLE, add: NEW}` for a range an operation adds. ROLE is network,
/// pods, services, cidrs (a network's ranges), routes (a network's routes,
/// which keep where they lead) or dns; OLD is the CIDR the sources give, a
/// requested size (/16, ipv6/64, auto), or the DNS address.
struct renumbering {
  std::string owner;
  source_location owner_where;
  std::string role;
  std::string from;
  source_location from_where;
  std::string to;
  source_location to_where;
  std::uint32_t to_end_column = 0;
  bool add = false;  ///< `{owner, role, add: CIDR}`: `to` is added beside the owner's ranges (no `from`)
};

/// Reads a `renumber:` list, reporting what is malformed at its position.
void read_renumbering(yaml_reader& r, std::uint32_t node, std::vector<renumbering>& out);

/// Applies the entries to f once every source is read (and defaults applied):
/// the range of the owner, role and CIDR `from` becomes `to`, declared where
/// the entry writes it. An entry whose owner or `from` the sources do not have
/// (they changed since the plan) is an error at its position.
void apply_renumbering(const std::vector<renumbering>& entries, fleet& f,
                       const std::unordered_map<std::string, std::uint32_t>& index, std::vector<diagnostic>& out);

}  // namespace cidrcheck::detail
