#pragma once
// NetBox prefixes as owners, shared by the two NetBox kinds: netbox.cpp reads
// /api/ipam/prefixes/ (JSON), netbox_csv.cpp the prefix list's CSV export. Both
// reduce a row to a netbox_prefix; add_netbox_prefixes() places them.

#include "../../fleet/imported.hpp"

#include <cidrcheck/io/diagnostic.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::detail {

/// One prefix as NetBox lists it. Empty texts are fields the export leaves unset.
struct netbox_prefix {
  imported_range range;                ///< the CIDR, at its value
  source_location where;               ///< the object or row that lists it
  std::optional<std::int64_t> id;      ///< NetBox's id, when the export has it
  std::string vrf;                     ///< as NetBox prints a VRF: "name (rd)" or "name"; empty: the global table
  std::string status, role, tenant;    ///< as NetBox labels them ("Active", a role's and a tenant's name)
  std::string scope;                   ///< where it is used: "site ams1", "region eu" (a site before NetBox 4.2)
  std::string description;
};

/// Returns the words for a NetBox scope type, "dcim.sitegroup" (the API, the
/// CSV export) or "DCIM > Site group" (the UI): "site group"; "" for "".
auto netbox_scope_word(std::string_view scope_type) -> std::string;

/// Turns prefixes, in reading order, into owners of `out`. Each VRF (and the
/// global table) is a routing domain of its own: in one domain, a prefix that
/// no other contains is a network (named CIDR, or VRF/CIDR) whose range it is,
/// and the prefixes inside it are allocations within that range
/// (claim_kind::within), so a container and its children never overlap as
/// owners. A prefix listed again in its domain (the same CIDR, or the same id)
/// is a warning at the repeat, with a note at the first, and is not read again.
/// `from` names the export in descriptions. O(n log n).
void add_netbox_prefixes(std::vector<netbox_prefix> prefixes, std::string_view from, import_result& out,
                         std::vector<diagnostic>& diagnostics);

}  // namespace cidrcheck::detail
