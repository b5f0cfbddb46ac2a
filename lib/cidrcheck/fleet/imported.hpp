#pragma once
// What an importer reads from one exported file, before sources are merged:
// owners with what the file says about their ranges, each range with the
// position it was read at. merge_imports() (import_merge.hpp) turns these into
// fleet owners and ranges. The importers (lib/cidrcheck/io/import/) fill it in.

#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/address.hpp>
#include <cidrcheck/io/source_location.hpp>
#include <cidrcheck/prefix.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cidrcheck::detail {

/// How a source's ranges for one role relate to the owner's real ranges.
enum class claim_kind : std::uint8_t {
  exact,       ///< the ranges themselves (a VPC's CIDR blocks, a cluster's service range)
  within,      ///< allocations that lie inside them (node pod CIDRs, subnets, Calico pools)
  additional,  ///< ranges beside the others (extra ServiceCIDR objects, a control-plane /28)
};

struct imported_range {
  prefix cidr;
  source_location where;
  std::uint32_t end_column = 0;  ///< one past the CIDR text, when it is on one line
  std::string label;             ///< a GCP secondary range's name, which a cluster may claim
};

/// What one source says about an owner's ranges in one role.
struct range_claim {
  range_role role = range_role::external;
  claim_kind kind = claim_kind::exact;
  std::vector<imported_range> ranges;
};

/// What a cluster makes of a labelled range of an owner it links.
struct link_label {
  std::string label;
  range_role role = range_role::pods;
  claim_kind kind = claim_kind::exact;
};

/// A cluster's reference to an owner that another source may describe (its
/// VPC, its subnet): that owner's ranges become the cluster's. A range without
/// a label goes to the cluster's network, as the owner claims it; a labelled
/// one as `labels` says, or it stays with its owner.
struct owner_link {
  std::string owner;
  std::string what;  ///< what the owner is to the cluster, for messages: "VPC", "subnet"
  source_location where;
  std::vector<link_label> labels;
};

/// A route a network carries (a subnet route on a tailnet): its prefix, who
/// advertises it, and, when the source names it, the owner it may lead to.
struct imported_route {
  imported_range range;
  std::string advertiser;
  std::string to;    ///< a guess at the destination's owner name (a hosts name); kept only if an owner has it
  std::string from;  ///< where in the source: "autoApprovers.routes"
};

/// An address a source saw in use in a role (a Service's cluster IP): it must
/// lie in the owner's ranges of that role, whichever source states them.
struct observed_address {
  address ip;
  source_location where;
  std::string user;  ///< who holds it, for messages: "Service default/web"
};

struct imported_owner {
  owner value;  ///< name, kind, type, scalars and their positions; value.ranges is unused
  std::vector<range_claim> claims;
  std::vector<imported_route> routes;  ///< networks: the routes the source says they carry
  /// value.nodes counts the nodes that exist now (a Node list, a node pool
  /// size): a lower bound, so a larger planned count elsewhere agrees with it.
  bool nodes_observed = false;
  std::vector<owner_link> links;
  /// Clusters this network says it belongs to (a VPC tagged
  /// kubernetes.io/cluster/NAME): `owner` is the cluster's name. A cluster of
  /// that name (from any source) links this network as if it named it.
  std::vector<owner_link> claimed_by;
  /// Clusters: the cluster IPs of Services; merge_imports() warns of those
  /// outside the merged service ranges (they keep a range from being retired).
  std::vector<observed_address> service_ips;
  /// The network this owner is part of, by name, where the export says (a GCP
  /// subnet's VPC network, "PROJECT/NETWORK"): a connection that names that
  /// network (a GCP peering connects networks) names each of its parts.
  std::string part_of;
};

/// A connection an importer infers (a tailnet and the routes it carries, a
/// peering, a transit gateway route table, a mesh). A member may be an owner
/// no source describes (the other side of a peering, in another account):
/// the fleet then warns and leaves it out, where a fleet file's would be an error.
struct imported_connection {
  connection value;  ///< value.members is unused
  std::vector<std::pair<std::string, source_location>> members;
  /// A mesh's connection: the catalog's mesh of this name (`meshes`) says
  /// which roles it carries, so value.routes is set when the fleet is loaded.
  std::string mesh = {};
};

struct import_result {
  std::vector<imported_owner> owners;
  std::vector<imported_connection> connections;
};

/// Adds a claim of ranges to an owner; no ranges, no claim.
inline void add_claim(imported_owner& o, range_role role, claim_kind kind, std::vector<imported_range> ranges) {
  if (ranges.empty()) return;
  o.claims.push_back({role, kind, std::move(ranges)});
}

/// Says which network a cluster runs in, as its export names it (an EKS
/// cluster's vpcId, an AKS pool's virtual network): the cluster's runs_in.
/// The first an export says is kept; the importer reports a different one.
inline auto set_runs_in(imported_owner& o, std::string network, source_location where) -> bool {
  if (!o.value.runs_in.empty()) return o.value.runs_in == network;
  o.value.runs_in = std::move(network);
  o.value.runs_in_where = std::move(where);
  return true;
}

/// Gives the owner a label (`labels:`) from what its export says: which
/// cloud, and where the export names a region or location. The first value a
/// key gets is kept, as a fleet file's own labels come first in the merge.
inline void add_label(imported_owner& o, std::string key, std::string value) {
  if (value.empty() || o.value.label(key)) return;
  o.value.labels.emplace_back(std::move(key), std::move(value));
}

/// Returns a new owner of the result, named and placed at `where`. It is
/// built in place: an owner is large, and importers add one per entry.
inline auto add_owner(import_result& out, std::string name, owner_kind kind, std::string type,
                      source_location where) -> imported_owner& {
  imported_owner& o = out.owners.emplace_back();
  o.value.name = std::move(name);
  o.value.kind = kind;
  o.value.type = std::move(type);
  o.value.type_where = where;
  o.value.where = std::move(where);
  return o;
}

}  // namespace cidrcheck::detail
