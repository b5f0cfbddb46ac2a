#pragma once
// Operation kinds: what an operator actually does to renumber (a ServiceCIDR
// added, a Calico pool swapped, a new VPC, a replacement cluster), when each
// applies, what it changes and what it costs. The catalog ships them as data
// (data/catalog.yaml, `operations:`); `cidrcheck plan` chooses among them.

#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/plan_limits.hpp>
#include <cidrcheck/fleet/profile.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {

/// What an operation kind changes.
enum class operation_scope : std::uint8_t {
  services,   ///< moves one service range in place
  pods,       ///< moves one pod range in place
  pod_space,  ///< adds a pod range beside the existing ones (grows, moves nothing)
  pod_expand, ///< grows a pod range in place into the larger prefix that contains it (moves nothing)
  pod_withdraw,  ///< moves a pod range's pods to a new range; the old range stays attached, withdrawn from the connections that carry it
  network,    ///< moves a network (a cluster's VPC, with every cluster in it, or a network owner's range)
  cluster,    ///< replaces the cluster: every range at once
};

/// Returns the scope's word in the catalog: "services", "pods", "pod-space", "pod-expand", "pod-withdraw",
/// "network", "cluster".
constexpr auto to_string(operation_scope s) noexcept -> std::string_view {
  switch (s) {
    case operation_scope::services: return "services";
    case operation_scope::pods: return "pods";
    case operation_scope::pod_space: return "pod-space";
    case operation_scope::pod_expand: return "pod-expand";
    case operation_scope::pod_withdraw: return "pod-withdraw";
    case operation_scope::network: return "network";
    case operation_scope::cluster: return "cluster";
  }
  return "cluster";
}

/// Returns the scope a catalog word names, or nullopt.
constexpr auto parse_operation_scope(std::string_view word) noexcept -> std::optional<operation_scope> {
  for (auto s : {operation_scope::services, operation_scope::pods, operation_scope::pod_space, operation_scope::pod_expand,
                 operation_scope::pod_withdraw, operation_scope::network, operation_scope::cluster}) {
    if (to_string(s) == word) return s;
  }
  return std::nullopt;
}

/// One kind of operation, as the catalog lists it.
struct operation_kind {
  std::string name;  ///< "service-cidr-api", "calico-ippool-swap", "replacement-cluster", ...
  operation_scope changes = operation_scope::cluster;
  /// When it applies: the owner kind (a network owner's own renumbering, or a cluster's),
  /// the distributions it is for or not for, the CNIs and IPAM modes, the Kubernetes
  /// versions (inclusive). Empty lists mean any; a version bound needs a known version.
  owner_kind owners = owner_kind::cluster;
  std::vector<std::string> distributions, not_distributions, cni, ipam;
  std::optional<kube_version> kubernetes_from, kubernetes_to;
  /// The IP versions of the ranges it may change or add (`families: [ipv4]`); empty: both.
  std::vector<ip_version> families;
  /// Where the pods of a cluster it applies to take their addresses from (its IPAM
  /// profile's `addresses`; address_source::unknown for a cluster whose IPAM the catalog
  /// does not know), with the fact that says why; empty: any. Moving kube-controller-manager's
  /// --cluster-cidr moves only pods numbered from Node podCIDRs, none that take network addresses.
  sourced<std::vector<address_source>> pod_addresses;
  /// Its cost: `cost`, plus one per `per_nodes` nodes, per `per_services` Services
  /// and per `per_load_balancers` LoadBalancers of the cluster, where the fleet knows them
  /// (0: the kind does not scale with it).
  int cost = 1;
  std::uint64_t per_nodes = 0, per_services = 0, per_load_balancers = 0;
  std::string what;    ///< what it does and what it cannot change, for people
  std::string why;     ///< the reasoning behind the default cost
  std::string source;  ///< where the facts of `when` and `what` come from
};

/// How a cluster's pods are numbered, as the catalog resolves it (catalog::pod_numbering_of):
/// the CNI it runs (its own, else its distribution's default; "" where neither names one),
/// its IPAM mode (its own `ipam`, else the mode its distribution runs the CNI in; "" for the
/// CNI's own default) and where that mode takes pod addresses from.
struct pod_numbering {
  std::string cni;
  std::string ipam;
  address_source addresses = address_source::unknown;
};

/// Reports whether kind k applies to owner o (its kind, distribution, version, and the CNI,
/// IPAM mode and address source of `pods`, o's pod numbering). An IPAM list matches a
/// cluster on its CNI's default mode when it lists "".
inline auto applies(const operation_kind& k, const owner& o, const pod_numbering& pods) -> bool {
  if (o.kind != k.owners) return false;
  auto listed = [](const auto& list, const auto& value) {
    for (const auto& x : list) {
      if (x == value) return true;
    }
    return false;
  };
  if (!k.distributions.empty() && !listed(k.distributions, o.type)) return false;
  if (listed(k.not_distributions, o.type)) return false;
  if (!k.cni.empty() && !listed(k.cni, pods.cni)) return false;
  if (!k.ipam.empty() && !listed(k.ipam, pods.ipam)) return false;
  const auto& sources = k.pod_addresses.value;
  if (!sources.empty() && !listed(sources, pods.addresses)) return false;
  if ((k.kubernetes_from || k.kubernetes_to) && !o.kubernetes) return false;
  if (k.kubernetes_from && *o.kubernetes < *k.kubernetes_from) return false;
  if (k.kubernetes_to && *o.kubernetes > *k.kubernetes_to) return false;
  return true;
}

/// Reports whether kind k may change or add a range of IP version v.
inline auto serves_family(const operation_kind& k, ip_version v) -> bool {
  for (auto f : k.families) {
    if (f == v) return true;
  }
  return k.families.empty();
}

/// A cost and what it counted ("base 2", "+3 for 250 nodes (1 per 100)").
struct operation_cost {
  int total = 0;
  std::vector<std::string> counted;
};

/// A base cost that replaces a kind's, and the plan setting it came from, as
/// written ("services", "owner:prod-eu/replacement-cluster").
struct cost_base {
  int cost = 0;
  std::string setting;
};

/// Returns kind k's cost for owner o: its base (or `base`, whose setting `counted`
/// names beside the catalog's base) plus its scaling with what the fleet knows of o,
/// each part said in `counted`.
inline auto cost_of(const operation_kind& k, const owner& o, const std::optional<cost_base>& base = std::nullopt)
    -> operation_cost {
  operation_cost c;
  c.total = base ? base->cost : k.cost;
  c.counted.push_back(base ? "base " + std::to_string(c.total) + " set by cost " + base->setting +
                                 " instead of the catalog's " + std::to_string(k.cost)
                           : "base " + std::to_string(c.total));
  auto scale = [&](const std::optional<std::uint64_t>& count, std::uint64_t per, const char* what) {
    if (per == 0 || !count) return;
    auto extra = *count / per;
    if (extra > static_cast<std::uint64_t>(max_plan_cost)) extra = max_plan_cost;  // the total stays an int
    c.total += static_cast<int>(extra);
    c.counted.push_back("+" + std::to_string(extra) + " for " + std::to_string(*count) + " " + what + " (1 per " +
                        std::to_string(per) + ")");
  };
  scale(o.nodes, k.per_nodes, "nodes");
  scale(o.service_count, k.per_services, "Services");
  scale(o.load_balancer_count, k.per_load_balancers, "LoadBalancers");
  return c;
}

}  // namespace cidrcheck
