#pragma once
// The fleet model: owners (clusters and networks), their ranges, and the
// connections that route ranges between them. Plain aggregates over the value
// types; the loaders in cidrcheck::io fill them, check() reads them.

#include <cidrcheck/detail/glob.hpp>
#include <cidrcheck/io/source_location.hpp>
#include <cidrcheck/prefix.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cidrcheck {

/// What an owner is: a Kubernetes cluster, or any other address space (an
/// office, a VPN, a tailnet, a peered VPC).
enum class owner_kind : std::uint8_t { cluster, network };

/// Returns "cluster" or "network", as reports and messages spell the kind.
constexpr auto to_string(owner_kind k) noexcept -> std::string_view {
  return k == owner_kind::cluster ? "cluster" : "network";
}

/// The role of a cluster's range. A network's ranges have role `external`;
/// their display role is the network's type.
enum class range_role : std::uint8_t { network = 0, pods = 1, services = 2, external = 3 };

/// Returns "network", "pods", "services" or "external".
constexpr auto to_string(range_role r) noexcept -> std::string_view {
  switch (r) {
    case range_role::network: return "network";
    case range_role::pods: return "pods";
    case range_role::services: return "services";
    case range_role::external: return "external";
  }
  return "external";
}

/// A set of cluster roles, as a connection's `routes` names them; as an
/// owner's `declared`, also whether a network wrote its `cidrs` (bit 3).
struct role_set {
  std::uint8_t bits = 0b111;  ///< network, pods, services: all by default

  static constexpr auto all() noexcept -> role_set { return {0b111}; }
  static constexpr auto none() noexcept -> role_set { return {0}; }
  constexpr auto has(range_role r) const noexcept -> bool {
    return r == range_role::external || (bits >> static_cast<int>(r) & 1) != 0;
  }
  /// Reports whether the set names r itself (external only when added): what
  /// an owner's `declared` asks, where has() answers what a connection carries.
  constexpr auto names(range_role r) const noexcept -> bool { return (bits >> static_cast<int>(r) & 1) != 0; }
  /// Adds a role; external, which a connection always carries, only marks the set (see names()).
  constexpr void add(range_role r) noexcept { bits = static_cast<std::uint8_t>(bits | 1 << static_cast<int>(r)); }
  constexpr void add(role_set other) noexcept { bits = static_cast<std::uint8_t>(bits | other.bits); }
  friend constexpr bool operator==(role_set, role_set) noexcept = default;
};

/// The words that name cluster roles in fleet files and options: "network"
/// (also "nodes"), "pods", "services", and "all" for the three.
inline constexpr std::string_view cluster_role_words[] = {"network", "pods", "services", "all"};

/// Returns the roles a word names (see cluster_role_words), or nullopt.
constexpr auto parse_cluster_roles(std::string_view word) noexcept -> std::optional<role_set> {
  if (word == "all") return role_set::all();
  role_set out = role_set::none();
  if (word == "network" || word == "nodes") out.add(range_role::network);
  else if (word == "pods") out.add(range_role::pods);
  else if (word == "services") out.add(range_role::services);
  else return std::nullopt;
  return out;
}

/// The values of a cluster's `pool_encapsulation`, one per mode of Calico's
/// IPPool (ipipMode and vxlanMode each Always, CrossSubnet or Never, not both;
/// the operator's Installation writes the same as IPIP, IPIPCrossSubnet, VXLAN,
/// VXLANCrossSubnet, None): ipip (ipipMode Always), ipip-cross-subnet, vxlan,
/// vxlan-cross-subnet, none (both Never).
inline constexpr std::string_view pool_encapsulation_words[] = {"ipip", "ipip-cross-subnet", "vxlan",
                                                                "vxlan-cross-subnet", "none"};

/// The values of a cluster's `routing_mode`: Cilium's RoutingModeTunnel and
/// RoutingModeNative (cilium/cilium pkg/option/config.go).
inline constexpr std::string_view routing_mode_words[] = {"tunnel", "native"};

/// The values of a cluster's `kube_proxy_mode`: kube-proxy's ProxyMode
/// (kubernetes/kubernetes pkg/proxy/apis/config/types.go: iptables, ipvs and
/// nftables on Linux, kernelspace on Windows).
inline constexpr std::string_view kube_proxy_mode_words[] = {"iptables", "ipvs", "nftables", "kernelspace"};

/// A Kubernetes minor version, "1.29".
struct kube_version {
  int major = 1;
  int minor = 0;
  friend constexpr auto operator<=>(const kube_version&, const kube_version&) noexcept = default;
};

/// Where a range came from: written in the file, or filled in by cidrcheck.
enum class range_origin : std::uint8_t {
  declared,              ///< written in the fleet file
  distribution_default,  ///< the default of the cluster's distribution (the cluster omitted the range)
  network_type,          ///< the ranges a known network type brings (tailscale, docker, ...)
  cni_default,           ///< the pool of the cluster's CNI (Cilium cluster-pool, Calico), the cluster omitted its pods
};

/// Returns the origin's name in reports: "declared", "distribution-default", "network-type", "cni-default".
constexpr auto to_string(range_origin o) noexcept -> std::string_view {
  switch (o) {
    case range_origin::declared: return "declared";
    case range_origin::distribution_default: return "distribution-default";
    case range_origin::network_type: return "network-type";
    case range_origin::cni_default: return "cni-default";
  }
  return "declared";
}

/// One CIDR of one owner in one role: the unit every rule talks about.
/// A network's range may be a route it carries toward another owner: then
/// `route` indexes fleet::routes, which says where it leads and who advertises it.
/// A range may be an owner's translated (global) range on a translated
/// connection (`via: nat`): then `translation` indexes fleet::connections.
struct fleet_range {
  static constexpr std::uint32_t not_a_route = 0xFFFF'FFFF;

  prefix cidr;
  std::uint32_t owner = 0;  ///< index into fleet::owners
  range_role role = range_role::external;
  range_origin origin = range_origin::declared;
  /// Where the CIDR was written; for a filled-in range, the key that brought it
  /// (the cluster's `distribution` or `cni`, or the network's `type`).
  source_location where;
  std::uint32_t end_column = 0;  ///< one past the last column of the text at `where`, when known
  std::uint32_t route = not_a_route;  ///< index into fleet::routes, or not_a_route
  std::uint32_t translation = not_a_route;  ///< index into fleet::connections, or not_a_route
  /// Where an import merged the range from several blocks of one network
  /// (adjacent subnets of a VPC known only from its subnets): every block's
  /// position in reading order, `where` first; empty for a range read as one.
  std::vector<source_location> merged_from;
  auto is_route() const noexcept -> bool { return route != not_a_route; }
  auto is_translated() const noexcept -> bool { return translation != not_a_route; }
  /// Reports whether the range is the owner's own space: neither a route nor a translated range.
  auto is_plain() const noexcept -> bool { return !is_route() && !is_translated(); }
};

/// A route a network carries toward another owner: a subnet router's
/// advertised route on a tailnet, a VPN's pushed route, a transit gateway's
/// propagated route. Its prefix is a range of the network (role external); a
/// route equal to or inside the ranges of the owner it leads to is that
/// owner's space seen through the network, not an overlap with it.
struct fleet_route {
  std::uint32_t range = 0;  ///< the route's prefix: index into fleet::ranges
  /// The owner it leads to, by name as written; empty when not said.
  std::string to;
  std::optional<std::uint32_t> to_owner;  ///< `to` resolved (index into fleet::owners)
  source_location to_where;
  /// Who advertises it (a subnet router, a tag, a VPN gateway); empty when not said.
  std::string advertiser;
  /// Where an import read it, for messages ("autoApprovers.routes"); empty for fleet files.
  std::string from;
};

/// Where an owner's mapping sits in its file, for writers that patch the file
/// in place (cidrcheck plan -o): the column its keys start at, where the mapping
/// ends, and whether it is written in flow style ({name: a, ...}).
struct mapping_layout {
  std::uint32_t key_column = 0;
  source_location end;
  bool flow = false;
  /// Where each range key (indexed by range_role: network, pods, services,
  /// cidrs) is written in the owner's own mapping: line and one past the key's
  /// last column; line 0 where it is not (omitted, or brought by a merge key).
  std::uint32_t range_key_line[4] = {};
  std::uint32_t range_key_end_column[4] = {};
};

/// The node CIDR masks and pod block sizes a fleet may hold (node_cidr_mask,
/// block_size and their IPv6 twins): from min_node_mask to the address width,
/// max_node_mask(version). The fleet reader refuses others, and so does every
/// importer, so that what `cidrcheck import` writes always reads back.
inline constexpr int min_node_mask = 1;
/// Returns the longest node CIDR mask of a version: 32 for IPv4, 128 for IPv6.
constexpr auto max_node_mask(ip_version v) noexcept -> int { return v == ip_version::v6 ? 128 : 32; }

/// A cluster or a network.
struct owner {
  std::string name;
  owner_kind kind = owner_kind::cluster;
  /// Network type (office, vpn, tailscale, ...) or cluster distribution (kops, eks, ...).
  std::string type;
  std::optional<kube_version> kubernetes;
  std::optional<int> node_cidr_mask;     ///< IPv4 --node-cidr-mask-size
  std::optional<int> node_cidr_mask_v6;  ///< IPv6 --node-cidr-mask-size-ipv6
  std::optional<std::uint64_t> nodes;    ///< node count, now or planned
  std::optional<address> dns;            ///< the cluster DNS service address
  std::string cni;                       ///< calico, cilium, flannel, vpc-cni, ... (for migration steps)
  /// How the CNI hands out pod addresses where the CNI alone does not say:
  /// cluster-pool, multi-pool, kubernetes, eni (Cilium), custom-networking (vpc-cni), ...
  std::string ipam;
  /// The block one node takes from the pod ranges where the CNI hands out
  /// blocks (Calico's IPPool blockSize); see catalog::pod_block.
  std::optional<int> block_size, block_size_v6;
  /// The IP families the cluster runs, "ipv4", "ipv6" or "dual"; empty: its
  /// distribution's (kind is IPv4 unless told), else whatever its ranges say.
  std::string ip_family;
  /// How pod traffic between nodes is carried where the cluster's pod pools
  /// say (Calico's IPPool ipipMode and vxlanMode; see pool_encapsulation_words);
  /// empty when no source says. For runbooks: a new pool copies it.
  std::string pool_encapsulation;
  /// Cilium's routing mode (cilium-config `routing-mode`): "tunnel" or
  /// "native"; empty when no source says.
  std::string routing_mode;
  /// kube-proxy's mode (KubeProxyConfiguration `mode`; see
  /// kube_proxy_mode_words); empty when no source says (kube-proxy then picks its default).
  std::string kube_proxy_mode;
  std::optional<std::uint64_t> service_count;        ///< Services in the cluster (what a service move recreates)
  std::optional<std::uint64_t> load_balancer_count;  ///< Services of type LoadBalancer among them
  bool movable = false;                  ///< networks: may `plan` renumber it
  /// Clusters: the network the cluster runs in (its nodes take that network's
  /// addresses: a VPC, a VNet, a data centre's range), by name, as a fleet
  /// file's `runs_in` or an export says; empty when no source says. A cluster
  /// no source places may still be placed by containment (see docs/concepts.md).
  std::string runs_in;
  source_location runs_in_where;
  /// `runs_in` resolved (index into fleet::owners, a network); nullopt when it
  /// names no owner: a network no source describes, or one whose ranges an
  /// import made the cluster's own (a VPC linked by its EKS cluster).
  std::optional<std::uint32_t> runs_in_owner;
  std::string description;               ///< for people; importers say what the owner was read from
  /// Labels (`labels:` in the fleet file): text keys to text values, in the
  /// order written, keys distinct (site, cloud, environment, region, ...).
  /// Named pools select owners by them (pool_selector).
  std::vector<std::pair<std::string, std::string>> labels;
  /// Returns the value of label `key`, or nullptr when the owner has none.
  auto label(std::string_view key) const -> const std::string* {
    for (const auto& [k, v] : labels) {
      if (k == key) return &v;
    }
    return nullptr;
  }
  auto label(std::string_view key) -> std::string* { return const_cast<std::string*>(std::as_const(*this).label(key)); }
  /// Cluster roles whose key the file gave, even as an empty list (`pods: []`):
  /// no distribution default fills these.
  role_set declared = role_set::none();
  source_location where;                 ///< where the owner's entry starts
  source_location type_where;            ///< where `distribution` or `type` was written
  std::uint32_t type_end_column = 0;     ///< one past the end of that value, when known
  source_location cni_where;             ///< where `cni` was written (CNI defaults are placed there)
  std::uint32_t cni_end_column = 0;
  source_location dns_where;
  source_location nodes_where;
  source_location service_count_where;
  source_location load_balancer_count_where;
  mapping_layout layout;
  std::vector<std::uint32_t> ranges;     ///< indexes into fleet::ranges
};

/// Returns how messages name an owner: "cluster prod-eu", "network office".
inline auto describe_owner(const owner& o) -> std::string {
  return std::string(to_string(o.kind)) + " " + o.name;
}

/// The `via` words of a translated connection: NAT in general, Submariner
/// Globalnet, Tailscale's 4via6 subnet routes.
inline constexpr std::string_view translating_vias[] = {"nat", "globalnet", "4via6"};

/// The `via` word of a peering of networks (VPC peering, VNet peering).
inline constexpr std::string_view peering_via = "peering";

/// A group of owners that all see each other; `routes` says which roles of a
/// cluster member the link carries (a network member's ranges are always carried).
/// A translated connection (via one of translating_vias) carries none of its
/// members' real ranges: each member is seen through its translated ranges
/// (fleet_range::translation), so their real ranges may overlap across it.
struct connection {
  std::string name;                    ///< optional; for messages
  std::vector<std::uint32_t> members;  ///< indexes into fleet::owners, distinct, in declared order
  std::string via;                     ///< peering, transit, vpn, mesh, tailscale, nat, globalnet, 4via6, ...
  role_set routes;
  /// Prefixes the connection no longer carries, in either direction: a route
  /// withdrawn from a VPN's pushed routes, a Cloud Router's advertisements, a
  /// transit gateway's propagation or a tailnet's approved routes. A member's
  /// range (or a network's route) that lies inside one is not carried across
  /// it; one that only overlaps one still is. Never on a translated connection.
  std::vector<prefix> withdrawn;
  source_location where;
  std::string description;             ///< for people

  /// Reports whether the connection is a peering of networks (`via: peering`),
  /// which clouds refuse between overlapping blocks (docs/rules/overlap.md).
  auto peers() const noexcept -> bool { return via == peering_via; }

  /// Reports whether the connection carries a member's range p: true unless p
  /// lies inside a withdrawn prefix. (Roles are asked of `routes`.)
  auto carries(const prefix& p) const noexcept -> bool {
    for (const auto& w : withdrawn) {
      if (p.subnet_of(w)) return false;
    }
    return true;
  }

  /// Reports whether the connection translates its members' addresses.
  auto translates() const noexcept -> bool {
    for (auto v : translating_vias) {
      if (via == v) return true;
    }
    return false;
  }
};

/// Two sources that disagree about an owner's ranges in one role and IP
/// version (rule source-conflict). The fleet keeps what the first source says;
/// `other` is what a later source says instead.
struct source_conflict {
  /// The ranges the fleet keeps (indexes into fleet::ranges, of one owner and role).
  std::vector<std::uint32_t> kept;
  std::vector<prefix> other;
  source_location other_where;  ///< where the later source gives the first of `other`
  /// True when `other` are allocations (node pod CIDRs, subnets) that should lie
  /// inside the kept ranges but do not; false when the two sources name different ranges.
  bool outside = false;
};

/// A range that still needs an address: written as a size (`pods: /16`) or
/// as `auto` (sized from the cluster's nodes); `cidrcheck plan` allocates it.
struct range_request {
  std::uint32_t owner = 0;
  range_role role = range_role::pods;
  ip_version version = ip_version::v4;
  std::optional<int> length;  ///< nullopt for auto
  source_location where;
  std::uint32_t end_column = 0;
};

/// A range `cidrcheck plan` must not move: "owner" or "owner/role", where '*'
/// matches any text ("*/network" pins every cluster's network).
struct pin_pattern {
  std::string pattern;
  source_location where;  ///< where it was written; empty for a command-line flag
};

/// How `cidrcheck plan` may renumber: the `plan:` section of a fleet file.
/// A cost `plan` gives operations instead of the catalog's: for one operation
/// kind, the in-place kinds of a role, or every kind (`what`), of one owner, of
/// one distribution's clusters, or of all. Written `[owner:NAME/|distribution:NAME/]WHAT`
/// (`replacement-cluster`, `owner:prod-eu/services`, `distribution:eks`); see
/// fleet/plan_limits.hpp for the key's syntax and docs/planning.md for precedence.
struct cost_override {
  enum class scope : std::uint8_t { any, owner, distribution };
  scope of = scope::any;
  std::string name;  ///< the owner or distribution; empty for any
  std::string what;  ///< an operation kind, a role (network, pods, services, all), or "*" (every kind)
  int cost = 0;
  source_location where;  ///< where the file wrote its key; unknown for flags
};

/// Which owners and roles a named pool serves (its `for:`): every label must
/// be the owner's, the owner's name must match `owner` ('*' matches any text)
/// when given, the role must be one of `roles` when given. Its specificity is
/// how many of these it gives (labels each count one).
struct pool_selector {
  std::vector<std::pair<std::string, std::string>> labels;
  std::optional<std::string> owner;  ///< a name pattern
  std::optional<role_set> roles;     ///< network (which movable networks draw from too), pods, services
  auto specificity() const noexcept -> std::size_t {
    return labels.size() + (owner ? 1 : 0) + (roles ? 1 : 0);
  }
};

/// A named pool (`plan: pools:` as a list of `{name, cidrs, for}`): new ranges
/// of the owners and roles its selector matches come from it; see
/// docs/planning.md "Pools by site".
struct named_pool {
  std::string name;
  std::vector<prefix> cidrs;
  pool_selector selector;
  source_location where;
};

/// Reports whether named pool p serves role `role` of owner o.
inline auto pool_serves(const named_pool& p, const owner& o, range_role role) -> bool {
  const auto& s = p.selector;
  if (s.roles && !s.roles->names(role == range_role::external ? range_role::network : role)) return false;
  if (s.owner && !detail::glob_match(*s.owner, o.name)) return false;
  for (const auto& [key, wanted] : s.labels) {
    const auto* value = o.label(key);
    if (!value || *value != wanted) return false;
  }
  return true;
}

struct plan_settings {
  /// Where new ranges may come from, per role (network, pods, services); empty
  /// means the default: RFC 1918 space, and fd00::/8 for IPv6.
  std::vector<prefix> pools[3];
  /// Named pools with selectors, in the order written: a new range comes from
  /// the most specific one that serves its owner and role (the first of
  /// equals), and from `pools` only where none does.
  std::vector<named_pool> named_pools;
  std::vector<prefix> avoid;        ///< space nobody may be given
  std::vector<pin_pattern> pins;
  std::optional<int> cost[3];       ///< per role: the base of that role's in-place kinds
  std::vector<cost_override> cost_overrides;  ///< per kind, owner, distribution, in the order given
  std::optional<double> headroom;   ///< pod ranges are sized for nodes x headroom (default 1.25)
  source_location where;
};

/// A whole fleet, possibly read from several files.
struct fleet {
  std::vector<owner> owners;
  std::vector<fleet_range> ranges;
  std::vector<connection> connections;
  std::vector<range_request> requests;
  plan_settings plan;
  std::vector<source_conflict> conflicts;  ///< sources that disagree; see source_conflict
  std::vector<fleet_route> routes;         ///< the routes networks carry; see fleet_route

  /// Returns the index of the owner with this name, or nullopt. O(n).
  auto find_owner(std::string_view name) const -> std::optional<std::uint32_t> {
    for (std::size_t k = 0; k < owners.size(); ++k) {
      if (owners[k].name == name) return static_cast<std::uint32_t>(k);
    }
    return std::nullopt;
  }
  /// Returns a connection's members as text names them: the first `shown`
  /// and how many more ("a, b, c, ... 2 more"), so that a line naming a mesh
  /// of a thousand clusters stays a line.
  auto describe_members(std::uint32_t index, std::size_t shown = 3) const -> std::string {
    const connection& c = connections[index];
    std::string out;
    for (std::size_t k = 0; k < c.members.size() && k < shown; ++k) out += (k ? ", " : "") + owners[c.members[k]].name;
    if (c.members.size() > shown) out += ", ... " + std::to_string(c.members.size() - shown) + " more";
    return out;
  }
  /// Returns how messages name a connection: "connection NAME (VIA)", or its
  /// members when it has no name: "connection [a, b, c, ... 2 more] (VIA)".
  auto describe_connection(std::uint32_t index) const -> std::string {
    const connection& c = connections[index];
    std::string out = "connection ";
    out += c.name.empty() ? "[" + describe_members(index) + "]" : c.name;
    if (!c.via.empty() && c.via != c.name) out += " (" + c.via + ")";
    return out;
  }
  /// Returns the role name a message uses for a range: the cluster role, or the network's type.
  /// A network's route is "route"; a translated range is "global".
  auto role_name(const fleet_range& r) const -> std::string {
    if (r.is_route()) return "route";
    if (r.is_translated()) return "global";
    if (r.role != range_role::external) return std::string(to_string(r.role));
    const auto& type = owners[r.owner].type;
    return type.empty() ? "network" : type;
  }
  /// Returns how messages name a range: "pods 100.96.0.0/11 of cluster prod-eu (kops default)";
  /// a network named after its type ("tailscale") gets no role word.
  auto describe_range(const fleet_range& r) const -> std::string {
    const owner& o = owners[r.owner];
    if (r.is_route()) {
      const fleet_route& x = routes[r.route];
      std::string out = "route " + r.cidr.to_string() + " of " + describe_owner(o);
      if (!x.advertiser.empty()) out += " (advertised by " + x.advertiser + ")";
      if (x.to_owner) out += " toward " + describe_owner(owners[*x.to_owner]);
      return out;
    }
    if (r.is_translated()) {
      return "global " + r.cidr.to_string() + " of " + describe_owner(o) + " on " + describe_connection(r.translation);
    }
    std::string role = role_name(r);
    std::string out = (role == o.name ? "" : role + " ") + r.cidr.to_string() + " of " + describe_owner(o);
    if (r.origin == range_origin::distribution_default) out += " (" + o.type + " default)";
    if (r.origin == range_origin::network_type) out += " (from its type)";
    if (r.origin == range_origin::cni_default) out += " (" + o.cni + " default)";
    return out;
  }
};

/// Reports whether a pin pattern pins range r of f: "owner" pins all the
/// owner's ranges, "owner/role" one role; '*' matches any run of characters.
inline auto pins(const pin_pattern& pin, const fleet& f, const fleet_range& r) -> bool {
  const auto& name = f.owners[r.owner].name;
  if (pin.pattern.find('/') == std::string::npos) return detail::glob_match(pin.pattern, name);
  return detail::glob_match(pin.pattern, name + "/" + f.role_name(r));
}

}  // namespace cidrcheck
