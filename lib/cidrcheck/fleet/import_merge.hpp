#pragma once
// Merging imports into a fleet: links (a cluster takes its VPC's ranges), one
// owner per name across sources, and what the sources disagree on. Domain
// logic over what importers claim (imported.hpp); the readers in io/ only read
// and position, and fleet_loader calls this once every source is read.

#include "imported.hpp"

#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/io/diagnostic.hpp>

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace cidrcheck::detail {

struct merge_limits {
  std::size_t max_owners;
  std::size_t max_ranges;
};

struct merged_imports {
  std::vector<imported_connection> connections;  ///< the connections the imports infer
  /// Owners whose ranges went to the clusters that link them (a VPC to its EKS
  /// cluster), by name: a connection naming one means those clusters (and the
  /// owner itself while it keeps ranges of its own).
  std::unordered_map<std::string, std::vector<std::string>> moved_to;
  /// Networks that are made of owners (a GCP VPC network of its subnets), by
  /// name: the owners that are part of each (imported_owner::part_of).
  std::unordered_map<std::string, std::vector<std::string>> parts;
  /// The cluster IPs of Services the imports saw, per merged owner (index
  /// into fleet::owners): for check_service_ips() once defaults are applied.
  std::vector<std::pair<std::uint32_t, std::vector<observed_address>>> service_ips;
};

/// Merges imports (in the order they were read) into f, whose owners so far
/// come from fleet files; `index` maps every owner name to its index and is
/// kept up to date. First each cluster takes the ranges of the owners it links
/// (see owner_link); then owners of one name are merged, the fleet files' own
/// values first, then the imports' in order:
/// - per role and IP version, the first source that states exact ranges wins;
///   a later one that states other ranges is a source_conflict in f.conflicts;
///   `additional` ranges join them; `within` ranges must lie inside them (a
///   conflict otherwise) and stand in for them, merged, when no source states them;
/// - a field (distribution, version, DNS, node mask, node count) keeps the
///   first value; a different later value is a warning in diagnostics.
/// Owners and ranges over the limits are reported as errors and left out.
auto merge_imports(std::vector<import_result> imports, fleet& f, std::unordered_map<std::string, std::uint32_t>& index,
                   const merge_limits& limits, std::vector<diagnostic>& diagnostics) -> merged_imports;

/// Warns of each cluster IP outside owner k's service ranges of its IP
/// version (its own or its distribution's, once apply_defaults() has run: a
/// k3s cluster's Services against 10.43.0.0/16); notes, once per version, the
/// IPs that no service range of their version lets cidrcheck check.
/// O(n log r) for n IPs and r ranges.
auto check_service_ips(const fleet& f, std::uint32_t k, const std::vector<observed_address>& ips,
                       std::vector<diagnostic>& diagnostics) -> void;

}  // namespace cidrcheck::detail
