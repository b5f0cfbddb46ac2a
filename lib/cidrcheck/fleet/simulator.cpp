// The simulator's driver: the model built from the fleet before the plan and
// each cluster's profile, every step executed and checked, the fleet check of
// each moment, the end state against the planned fleet.

#include <cidrcheck/fleet/simulator.hpp>

#include "compact_findings.hpp"
#include "simulator_world.hpp"

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/triage.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

namespace cidrcheck {

namespace {

using namespace detail::sim;

// --- the model at the start ----------------------------------------------------------

// Node podCIDRs cut from the pod ranges as kube-controller-manager does (one block per node).
auto node_block(const prefix& range, std::size_t k) -> prefix {
  int length = std::min(range.width(), range.length() + 4);
  return prefix::containing(
      address::from_bits(range.version(), range.network().bits() + (static_cast<uint128>(k) << (range.width() - length))),
      length);
}

// A role's ranges a cluster is created with (change_resource's role and ranges).
struct created_range {
  range_role role = range_role::services;
  std::vector<prefix> ranges;
};

// The cluster of owner `index` as fleet f has it, but for the role of
// `created`, whose ranges are the step's: a range the plan creates at a
// requested size, set where the cluster is created.
auto make_cluster(const fleet& f, const fleet& planned, const catalog& cat, std::uint32_t index,
                  const std::optional<created_range>& created = std::nullopt) -> cluster_world {
  const owner& o = f.owners[index];
  auto ranges = [&](range_role role) {
    return created && created->role == role ? created->ranges : plain_ranges(f, o, role);
  };
  const auto profile = cat.profile_of(o);
  cluster_world c;
  c.owner = index;
  c.name = o.name;
  for (auto k : o.ranges) {
    const auto& r = f.ranges[k];
    if (!r.is_plain()) continue;
    const auto& after = planned.owners[index].ranges;
    bool kept = std::any_of(after.begin(), after.end(), [&](std::uint32_t j) { return planned.ranges[j].cidr == r.cidr; });
    if (!kept) c.retired.push_back(r.cidr);
  }
  const auto* dist = profile.distribution;
  const auto* ipam = profile.ipam;
  const auto* kube = profile.kubernetes;
  c.provider_control_plane = dist != nullptr && dist->control_plane.value == control_plane_config::provider;
  switch (cat.pod_numbering_of(o).addresses) {
    case address_source::cni_pool:
    case address_source::external: c.addresses = pod_addresses::pools; break;  // not from Node podCIDRs
    case address_source::network: c.addresses = pod_addresses::network; break;
    case address_source::node_pod_cidr:
    case address_source::unknown: c.addresses = pod_addresses::node_pod_cidr; break;
  }
  if (ipam != nullptr) {
    c.flannel = ipam->pool.value == pool_kind::flannel_network;
    c.calico_api_server = ipam->pool_tool.value == object_tool::kubectl;
    c.node_blocks_from_pools = c.addresses == pod_addresses::pools && ipam->pickup.value == range_pickup::roll_nodes;
    c.range_field = ipam->range_field.value;
    c.pool_api = ipam->pool_api.value;
    c.kube_proxy_holds_pool = ipam->kube_proxy_holds_pool.value;
    c.pods_move_at_restart = ipam->pickup.value == range_pickup::restart_pods;
  }
  if (kube != nullptr) {
    c.servicecidr_kind = kube->service_cidr.value != service_cidr_stage::none;
    c.servicecidr_default_on = kube->service_cidr.value == service_cidr_stage::ga;
    c.servicecidr_api = kube->service_cidr_api.value;
  }
  if (dist != nullptr) {
    c.sans_from_spec = dist->sans.value == san_method::spec_field || dist->sans.value == san_method::server_flag;
    c.sans_store = dist->sans.value == san_method::kubeadm_certs ? config_store::kubeadm_configuration
                                                                 : config_store::control_plane;
    c.sans_field = dist->sans_field.value;
    c.kubelet_in_server = dist->kubelet_in_server.value;
    c.dns_by_distribution = dist->dns_addon.value == dns_addon_owner::distribution;
    c.distribution = dist;
    for (const auto& p : dist->settings) c.places.push_back({p.target, p.setting, p.store, p.field});
  }

  auto services = ranges(range_role::services);
  auto pods = ranges(range_role::pods);
  const bool gate = c.servicecidr_default_on;
  for (auto* component : {&c.apiserver, &c.controller_manager}) {
    component->set_running(service_range_flag, services);
    if (gate) component->gates_written = component->gates_on = {std::string(service_cidr_gate)};
  }
  // Node IPAM is kube-controller-manager's, or the provider's where the provider runs it.
  c.controller_manager.set_running(cluster_cidr_flag, pods);
  c.controller_manager.set_running(allocate_node_cidrs_flag, true);
  if (!c.provider_control_plane) c.kube_proxy.set_running(proxy_cluster_cidr_field, pods);
  if (c.flannel && !pods.empty()) c.cni_agent.set_running(c.range_field, std::vector<prefix>{pods.front()});
  // A service range created: the DNS address the plan gives it, where it lies there (else the tenth, below).
  std::optional<address> dns = o.dns;
  if (created && created->role == range_role::services) {
    dns = planned.owners[index].dns && inside(services, *planned.owners[index].dns) ? planned.owners[index].dns
                                                                                  : std::nullopt;
  }
  if (!dns && !services.empty()) dns = address::from_bits(services.front().version(), services.front().network().bits() + 10);
  if (dns) c.kubelet.set_running(cluster_dns_field, std::vector<address>{*dns});
  // What the stored configuration says at the start is what runs.
  for (const auto& p : c.places) {
    const component_state* state = c.state_of(p.target);
    const auto* value = state != nullptr ? state->get(p.setting) : nullptr;
    bool known = std::any_of(c.stored.begin(), c.stored.end(),
                             [&](const cluster_world::stored_field& s) { return s.store == p.store && s.field == p.field; });
    if (value != nullptr && !known) c.stored.push_back({p.store, p.field, *value});
  }

  // Two control-plane members and two workers, in two subnets.
  for (int k = 0; k < 4; ++k) {
    node n;
    n.control_plane = k < 2;
    n.name = (n.control_plane ? "control-plane-" : "worker-") + std::to_string(k % 2);
    n.subnet = k % 2;
    c.nodes.push_back(std::move(n));
  }
  if (!pods.empty()) {
    for (std::size_t k = 0; k < c.nodes.size(); ++k) {
      c.nodes[k].pod_cidrs = {node_block(pods.front(), k)};
      if (c.flannel) c.nodes[k].network_pod_cidr = pods.front();
    }
  }
  // The old pool's encapsulation: pods cross subnets encapsulated, as the
  // defaults of kops and of Calico's operator do (kops-calico-default-pool,
  // calico-manifest-default-pool); a new pool must keep it (calico-encap-needed).
  if (c.addresses != pod_addresses::node_pod_cidr) {
    const bool calico = ipam != nullptr && ipam->pool.value == pool_kind::calico_ippool;
    c.cross_subnet_needs_encapsulation = calico;
    // A CiliumPodIPPool is `default` unless a pod asks for another (cilium-multipool);
    // a range list's entries have no names of their own.
    const auto kind = ipam != nullptr ? ipam->pool.value : pool_kind::none;
    for (std::size_t k = 0; k < pods.size(); ++k) {
      pool p;
      p.name = kind == pool_kind::cilium_pod_ip_pool ? std::string("default")
               : kind == pool_kind::cilium_cluster_pool ? std::string(listed_pool)
                                                         : "default-pool-" + std::to_string(k);
      p.cidr = pods[k];
      if (calico) p.ipip = encapsulation::cross_subnet;
      else p.ipip = encapsulation::always;
      p.nat_outgoing = calico;
      c.pools.push_back(p);
    }
    c.operator_pools = c.pools;
    if (c.node_blocks_from_pools && !pods.empty()) {
      for (std::size_t k = 0; k < c.nodes.size(); ++k) c.nodes[k].cni_cidrs = {node_block(pods.front(), k + 8)};
    }
  }

  // Services: kubernetes.default, the cluster DNS, a ClusterIP, a LoadBalancer, a headless one.
  if (!services.empty()) {
    const auto& primary = services.front();
    auto at = [&](std::uint64_t offset) {
      return address::from_bits(primary.version(), primary.network().bits() + offset);
    };
    c.services.push_back({"default", "kubernetes", service_kind::kubernetes, {primary.network().next()}});
    // kube-apiserver refuses a cluster IP outside its ranges (svc-clusterip-immutable): where kubelets hand
    // out an address outside them, kube-dns is elsewhere (the tenth address, svc-dns-tenth) and that one is dead.
    if (dns && !inside(services, *dns)) {
      c.dead_dns = dns;
      dns = at(10);
    }
    if (dns) c.services.push_back({"kube-system", "kube-dns", service_kind::dns, {*dns}});
    // On a dual-stack cluster the ClusterIP and LoadBalancer Services are dual-stack
    // (PreferDualStack); kubernetes and the DNS Service stay in the primary family.
    auto addresses = [&](std::uint64_t offset) {
      std::vector<address> out{at(offset)};
      if (services.size() > 1) {
        out.push_back(address::from_bits(services[1].version(), services[1].network().bits() + offset));
      }
      return out;
    };
    c.services.push_back({"default", "backend", service_kind::cluster_ip, addresses(primary.size() > 64 ? 33 : 3)});
    if (o.load_balancer_count.value_or(1) > 0) {
      c.services.push_back({"default", "web", service_kind::load_balancer, addresses(primary.size() > 64 ? 34 : 4)});
    }
    c.services.push_back({"default", "db", service_kind::headless, {}});
    c.certificate = {primary.network().next()};
  }
  c.next_address = 40;
  settle(c);

  // Workloads: an app on each worker, CoreDNS beside it.
  for (std::size_t k = 2; k < 4; ++k) {
    for (const char* workload : {"app", "coredns"}) {
      pod p;
      p.workload = workload;
      p.node = k;
      start_pod(c, p);
      c.pods.push_back(p);
    }
  }
  // Where the fleet does not say enough for CoreDNS to run in the model (no pod
  // range the pools could hold), DNS is not held to what it never did.
  c.dns_at_start = std::any_of(c.pods.begin(), c.pods.end(), [](const pod& p) { return p.workload == "coredns" && running(p); });
  return c;
}

// What the fleet before the plan says about routing, indexed once for every
// runbook: the connections each owner is a member of, and the declared routes
// toward each owner.
struct routing {
  std::vector<std::vector<std::uint32_t>> memberships;  // per owner: connections
  std::vector<std::vector<std::uint32_t>> routes_to;    // per owner: fleet::routes leading there

  explicit routing(const fleet& f) : memberships(f.owners.size()), routes_to(f.owners.size()) {
    for (std::uint32_t k = 0; k < f.connections.size(); ++k) {
      const auto& conn = f.connections[k];
      if (conn.translates() || conn.members.size() < 2) continue;
      for (auto m : conn.members) memberships[m].push_back(k);
    }
    auto destinations = route_destinations(f);
    for (std::uint32_t k = 0; k < f.routes.size(); ++k) {
      if (destinations[k]) routes_to[*destinations[k]].push_back(k);
    }
  }
};

// A connection that carries some of an owner's ranges, or a network's declared route toward it.
void add_routes(world& w, const fleet& f, const routing& index, std::uint32_t owner) {
  for (auto k : index.memberships[owner]) {
    const auto& conn = f.connections[k];
    carried_routes r;
    r.name = f.describe_connection(k);
    r.connection = k;
    r.owner = owner;
    r.roles = conn.routes;
    if (f.owners[owner].kind == owner_kind::network) {
      r.roles = role_set::none();
      r.roles.add(range_role::external);
    }
    for (auto i : f.owners[owner].ranges) {
      const auto& range = f.ranges[i];
      if (range.is_plain() && r.roles.names(range.role) && conn.carries(range.cidr)) r.prefixes.push_back(range.cidr);
    }
    if (!r.prefixes.empty()) w.routes.push_back(std::move(r));
  }
  for (auto k : index.routes_to[owner]) {
    const auto& range = f.ranges[f.routes[k].range];
    carried_routes r;
    r.name = "network " + f.owners[range.owner].name + "'s route " + range.cidr.to_string();
    r.route = k;
    r.owner = owner;
    r.roles = role_set::all();
    r.prefixes = {range.cidr};
    w.routes.push_back(std::move(r));
  }
}

auto make_world(const simulation_context& ctx, const routing& index, const runbook& book) -> world {
  const fleet& f = *ctx.original;
  world w;
  w.replacement_of = [&ctx](std::uint32_t owner) {
    return make_cluster(*ctx.planned, *ctx.planned, *ctx.catalog, owner);
  };
  w.created_with = [&ctx](std::uint32_t owner, range_role role, const std::vector<prefix>& ranges) {
    return make_cluster(*ctx.original, *ctx.planned, *ctx.catalog, owner, created_range{role, ranges});
  };
  std::vector<std::uint32_t> owners = book.owners;
  for (const auto& s : book.steps) owners.push_back(s.owner);
  std::sort(owners.begin(), owners.end());
  owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
  for (auto k : owners) {
    if (k >= f.owners.size()) continue;
    const auto& o = f.owners[k];
    if (o.kind == owner_kind::cluster) w.clusters.push_back(make_cluster(f, *ctx.planned, *ctx.catalog, k));
    network_world n{k, plain_ranges(f, o, o.kind == owner_kind::cluster ? range_role::network : range_role::external)};
    w.networks.push_back(std::move(n));
    add_routes(w, f, index, k);
  }
  return w;
}

// --- the fleet at each moment ---------------------------------------------------------

// A finding's identity across fleets: its rule and the (owner, role, CIDR) of its ranges.
// Held in place, without a heap block: the plan's fleet may have a million.
struct finding_key {
  using range_key = std::tuple<std::uint32_t, range_role, prefix>;
  rule id = rule::overlap;
  std::array<range_key, 2> ranges{};  // sorted; a finding of one range leaves the second empty
  std::uint8_t count = 0;
  auto operator==(const finding_key&) const -> bool = default;
};

auto key_of(const fleet& f, rule id, std::span<const std::uint32_t> of) -> finding_key {
  // check() gives a finding one range or two (finding::ranges).
  if (of.size() > 2) throw std::logic_error("a finding of check() names more than two ranges");
  finding_key out{id, {}, static_cast<std::uint8_t>(of.size())};
  for (std::size_t k = 0; k < of.size(); ++k) {
    const auto& r = f.ranges[of[k]];
    out.ranges[k] = {r.owner, r.role, r.cidr};
  }
  std::sort(out.ranges.begin(), out.ranges.begin() + out.count);
  return out;
}

// A hash of a finding's key (finding_key ==).
auto hash_of(const finding_key& k) -> std::uint64_t {
  std::uint64_t h = static_cast<std::uint64_t>(k.id) << 8 | k.count;
  auto mix = [&h](std::uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  for (std::size_t r = 0; r < k.count; ++r) {
    const auto& cidr = std::get<2>(k.ranges[r]);
    const auto bits = cidr.network().bits();
    mix(std::get<0>(k.ranges[r]));
    mix(static_cast<std::uint64_t>(std::get<1>(k.ranges[r])) << 16 | static_cast<std::uint64_t>(cidr.version()) << 8 |
        static_cast<std::uint64_t>(cidr.length()));
    mix(static_cast<std::uint64_t>(bits >> 64));
    mix(static_cast<std::uint64_t>(bits));
  }
  return h;
}

// The errors of fleet g as plan() judges them (rule settings, suppressions),
// as compact records without text, since most checks here find nothing new
// (and the fleet a plan starts from may have a million overlaps).
struct errors {
  detail::compact_findings found;
  std::vector<std::uint32_t> indexes;  // of the errors in found
};
auto errors_of(const simulation_context& ctx, const fleet& g) -> errors {
  auto options = ctx.check;
  options.describe = false;
  errors out{detail::check_compact(g, *ctx.catalog, options), {}};
  if (ctx.triage) out.found.triage(g, *ctx.triage);
  for (std::uint32_t k = 0; k < out.found.size(); ++k) {
    if (out.found.level(k) == severity::error) out.indexes.push_back(k);
  }
  return out;
}

// The message of the finding of g with key k, checked again with messages.
auto message_of(const simulation_context& ctx, const fleet& g, const finding_key& k) -> std::string {
  auto options = ctx.check;
  options.describe = true;
  options.describe_overlaps = true;
  auto found = check(g, *ctx.catalog, options);
  if (ctx.triage) found = triage(g, std::move(found), *ctx.triage).findings;
  for (const auto& x : found) {
    if (x.level == severity::error && key_of(g, x.id, x.ranges) == k) return x.message;
  }
  return std::string(info(k.id).name);
}

// A fleet of one owner as projected: what the rules of one owner see.
auto owner_fleet(const fleet& f, const owner_projection& p) -> fleet {
  fleet out;
  owner o = f.owners[p.owner];
  o.ranges.clear();
  o.dns = p.dns ? p.dns : o.dns;
  out.owners.push_back(std::move(o));
  for (const auto& [role, cidr] : p.ranges) {
    fleet_range r;
    r.cidr = cidr;
    r.owner = 0;
    r.role = role;
    r.where = f.owners[p.owner].where;
    out.owners[0].ranges.push_back(static_cast<std::uint32_t>(out.ranges.size()));
    out.ranges.push_back(r);
  }
  return out;
}

// A moment of one runbook: the projection of its owners after a step.
struct moment {
  std::size_t book = 0;
  std::size_t step = 0;
  owner_projection projection;
};

// The fleet check: per-owner rules on each moment of each owner, and the
// rules of pairs once on the fleet holding every range of every moment.
void check_moments(const simulation_context& ctx, const std::vector<moment>& moments,
                   std::vector<simulation_result>& results) {
  const fleet& f = *ctx.original;
  // The errors the plan started with: pairs from the whole fleet, owners' own per owner.
  // The fleet's are held as the hashes of their keys with their indexes (16 bytes each), sorted.
  const auto planned_from = errors_of(ctx, f);
  auto start_key = [&](std::uint32_t k) { return key_of(f, planned_from.found.id(k), planned_from.found.ranges(k)); };
  std::vector<std::pair<std::uint64_t, std::uint32_t>> before;
  before.reserve(planned_from.indexes.size());
  for (auto k : planned_from.indexes) before.emplace_back(hash_of(start_key(k)), k);
  std::sort(before.begin(), before.end());
  auto started_with = [&](const finding_key& key) {
    const auto hash = hash_of(key);
    auto lo = std::lower_bound(before.begin(), before.end(), std::pair(hash, std::uint32_t{0}));
    for (; lo != before.end() && lo->first == hash; ++lo) {
      if (start_key(lo->second) == key) return true;
    }
    return false;
  };

  // Per owner: rules that read one owner's ranges, against what the owner alone started with.
  std::map<std::uint32_t, std::vector<finding_key>> own_before;
  for (const auto& m : moments) {
    auto [at, first] = own_before.try_emplace(m.projection.owner);
    auto& start = at->second;
    if (first) {
      owner_projection original{m.projection.owner, {}, f.owners[m.projection.owner].dns};
      for (auto k : f.owners[m.projection.owner].ranges) {
        if (f.ranges[k].is_plain()) original.ranges.emplace_back(f.ranges[k].role, f.ranges[k].cidr);
      }
      auto one = owner_fleet(f, original);
      const auto [found, indexes] = errors_of(ctx, one);
      for (auto k : indexes) start.push_back(key_of(one, found.id(k), found.ranges(k)));
    }
    auto one = owner_fleet(f, m.projection);
    const auto [found, indexes] = errors_of(ctx, one);
    for (auto index : indexes) {
      const auto id = found.id(index);
      if (found.ranges(index).size() > 1 && id != rule::overlap_internal) continue;
      // service-range-count counts the flag's ranges; a ServiceCIDR beside them is no second flag value.
      if (id == rule::service_range_count) continue;
      auto k = key_of(one, id, found.ranges(index));
      if (std::find(start.begin(), start.end(), k) != start.end()) continue;
      fail(results[m.book].failures, m.step, simulation_check::fleet, std::nullopt, message_of(ctx, one, k));
    }
  }

  // Pairs: one check on the fleet with every range of every moment beside the original ones.
  fleet all = f;
  struct added {
    std::size_t book, step;
  };
  std::vector<added> origin(f.ranges.size(), {static_cast<std::size_t>(-1), 0});
  for (const auto& m : moments) {
    for (const auto& [role, cidr] : m.projection.ranges) {
      bool known = false;
      for (auto k : all.owners[m.projection.owner].ranges) {
        known = known || (all.ranges[k].role == role && all.ranges[k].cidr == cidr && all.ranges[k].is_plain());
      }
      if (known) continue;
      fleet_range r;
      r.cidr = cidr;
      r.owner = m.projection.owner;
      r.role = role;
      r.where = f.owners[m.projection.owner].where;
      all.owners[m.projection.owner].ranges.push_back(static_cast<std::uint32_t>(all.ranges.size()));
      all.ranges.push_back(r);
      origin.push_back({m.book, m.step});
    }
  }
  if (all.ranges.size() == f.ranges.size()) return;
  const auto [found, indexes] = errors_of(ctx, all);
  for (auto index : indexes) {
    const auto ranges = found.ranges(index);
    if (ranges.size() < 2) continue;
    if (all.ranges[ranges[0]].owner == all.ranges[ranges[1]].owner) continue;
    auto k = key_of(all, found.id(index), ranges);
    if (started_with(k)) continue;
    for (auto range : ranges) {
      if (range < f.ranges.size()) continue;
      fail(results[origin[range].book].failures, origin[range].step, simulation_check::fleet, std::nullopt,
           message_of(ctx, all, k));
    }
  }
}

// The ranges a step names: in what it sets, recreates into, restarts, routes,
// changes at the provider, selects nodes by, and checks.
auto named_ranges(const runbook_step& s) -> std::vector<prefix> {
  std::vector<prefix> out;
  auto add = [&](const std::vector<prefix>& list) { out.insert(out.end(), list.begin(), list.end()); };
  std::visit(
      [&](const auto& a) {
        using kind = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<kind, set_flag> || std::is_same_v<kind, edit_field>) {
          if (const auto* list = std::get_if<std::vector<prefix>>(&a.value)) add(*list);
        } else if constexpr (std::is_same_v<kind, recreate_services>) {
          add(a.into);
        } else if constexpr (std::is_same_v<kind, restart_workloads> || std::is_same_v<kind, change_resource>) {
          add(a.ranges);
        } else if constexpr (std::is_same_v<kind, advertise_route> || std::is_same_v<kind, withdraw_route>) {
          out.push_back(a.cidr);
        } else if constexpr (std::is_same_v<kind, drain_nodes> || std::is_same_v<kind, remove_nodes> ||
                             std::is_same_v<kind, register_nodes> || std::is_same_v<kind, roll_nodes>) {
          add(a.nodes.pod_cidr_outside);
        }
      },
      s.action);
  for (const auto& c : s.checks) add(c.ranges);
  return out;
}

// The roles an operation of scope s moves on its own owners, whatever its steps
// name: one role in place (the network of a VPC and of the clusters in it),
// every role of a replaced cluster.
auto scope_roles(operation_scope s) -> std::vector<range_role> {
  switch (s) {
    case operation_scope::services: return {range_role::services};
    case operation_scope::pods:
    case operation_scope::pod_space:
    case operation_scope::pod_expand:
    case operation_scope::pod_withdraw: return {range_role::pods};
    case operation_scope::cluster: return {range_role::network, range_role::pods, range_role::services, range_role::external};
    case operation_scope::network: return {range_role::network};
  }
  return {};
}

// What a runbook moves: each (owner, role) of which a step names a range (or a
// block inside one) the plan adds or retires, and each role its operation's
// kind moves on its owners where the plan changes it (so that a runbook that
// never names its ranges cannot pass by leaving them). The end state of a runbook is the plan's for these and
// the original fleet's for the rest, which other runbooks of the plan move.
auto moved_roles(const fleet& original, const fleet& planned, const catalog& cat, const runbook& book)
    -> std::vector<moved_role> {
  std::vector<prefix> named;
  for (const auto& step : book.steps) {
    auto more = named_ranges(step);
    named.insert(named.end(), more.begin(), more.end());
  }
  auto plain = [](const fleet& f, std::uint32_t o) {
    std::vector<std::pair<range_role, prefix>> out;
    if (o >= f.owners.size()) return out;
    for (auto k : f.owners[o].ranges) {
      if (f.ranges[k].is_plain() && f.ranges[k].cidr.is_valid()) out.emplace_back(f.ranges[k].role, f.ranges[k].cidr);
    }
    return out;
  };
  // Only the runbook's own owners: O(its steps and their owners' ranges), whatever the fleet's size.
  std::vector<std::uint32_t> owners(book.owners.begin(), book.owners.end());
  for (const auto& step : book.steps) owners.push_back(step.owner);
  std::sort(owners.begin(), owners.end());
  owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
  std::vector<moved_role> out;
  for (auto o : owners) {
    auto before = plain(original, o), after = plain(planned, o);
    auto mark = [&](const std::vector<std::pair<range_role, prefix>>& from, const std::vector<std::pair<range_role, prefix>>& other) {
      for (const auto& r : from) {
        if (std::find(other.begin(), other.end(), r) != other.end()) continue;
        bool is_named = std::any_of(named.begin(), named.end(), [&](const prefix& p) { return p.subnet_of(r.second); });
        if (is_named) out.push_back({o, r.first});
      }
    };
    mark(after, before);
    mark(before, after);
  }
  // A runbook of no catalog kind (a requested range, a DNS address put back) says its role, which
  // ends as planned even where its range stays (the DNS address moves inside it).
  const auto* kind = cat.find_operation(book.kind);
  std::vector<range_role> roles;
  if (kind != nullptr) roles = scope_roles(kind->changes);
  else if (book.role) roles = {*book.role};
  for (auto role : roles) {
    for (auto o : book.owners) {
      auto before = plain(original, o), after = plain(planned, o);
      auto other_role = [role](const std::pair<range_role, prefix>& r) { return r.first != role; };
      std::erase_if(before, other_role);
      std::erase_if(after, other_role);
      std::sort(before.begin(), before.end());
      std::sort(after.begin(), after.end());
      if (before != after || kind == nullptr) out.push_back({o, role});
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Whether a step interrupts workloads by its kind, so that what they reached may
// be lost from it until a later step brings all of it back: draining or
// removing nodes stops their pods, and a Service deleted (or recreated at a new
// address) is gone for the clients that hold its address until they restart.
// Any other step that loses reachability or DNS is a failure at once.
auto interrupts(const runbook_step& s) -> bool {
  if (std::holds_alternative<drain_nodes>(s.action) || std::holds_alternative<remove_nodes>(s.action)) return true;
  if (std::holds_alternative<recreate_services>(s.action)) return true;
  const auto* d = std::get_if<delete_object>(&s.action);
  return d != nullptr && d->kind == "Service";
}

// Runs one runbook's steps on its world; the moments whose projection changed.
void run(const simulation_context& ctx, const runbook& book, std::size_t index, world& w, simulation_result& result,
         std::vector<moment>& moments) {
  result.steps = book.steps.size();
  const auto baseline = reach_baseline(w);
  auto last = project(w, *ctx.original, *ctx.planned);
  bool interrupted = false;  // a step that interrupts by design ran, and not all came back yet
  for (std::size_t k = 0; k < book.steps.size(); ++k) {
    const auto& step = book.steps[k];
    if (!execute(w, *ctx.planned, k, step)) {
      result.skipped.push_back(k);
      continue;
    }
    interrupted = interrupted || interrupts(step);
    if (check_state(w, k, baseline, interrupted)) interrupted = false;
    check_step(w, k, step);
    auto now = project(w, *ctx.original, *ctx.planned);
    for (std::size_t i = 0; i < now.size(); ++i) {
      if (i < last.size() && now[i] == last[i]) continue;
      moments.push_back({index, k, now[i]});
    }
    last = std::move(now);
  }
  // An interruption the runbook never ends is a failure of its end.
  if (interrupted) check_state(w, book.steps.size(), baseline, false);
  check_end(w, book.steps.size(), *ctx.original, *ctx.planned, moved_roles(*ctx.original, *ctx.planned, *ctx.catalog, book),
            last);
}

}  // namespace

auto to_string(const simulation_failure& f, std::size_t steps) -> std::string {
  std::string where = f.step >= steps ? std::string("end") : "step " + std::to_string(f.step + 1);
  std::string rule = f.rule ? std::string(info(*f.rule).name) + " (fact " + std::string(info(*f.rule).fact) + ")"
                            : std::string("-");
  return where + " [" + std::string(to_string(f.check)) + "] " + rule + ": " + f.message;
}

auto summary(const simulation_result& r) -> std::string {
  if (!r.passed()) {
    const auto& first = r.failures.front();
    return "FAILED: " + std::to_string(r.failures.size()) + (r.failures.size() == 1 ? " failure" : " failures") +
           ", the first " + (first.step >= r.steps ? std::string("at the end") : "at step " + std::to_string(first.step + 1));
  }
  std::string out = "passed: " + std::to_string(r.steps - r.skipped.size()) + " of " + std::to_string(r.steps) +
                    (r.steps == 1 ? " step" : " steps") + " simulated";
  if (!r.skipped.empty()) {
    out += "; not simulated (no machine meaning):";
    for (std::size_t k = 0; k < r.skipped.size(); ++k) out += (k ? ", " : " step ") + std::to_string(r.skipped[k] + 1);
  }
  return out;
}

auto simulate_runbooks(const simulation_context& context, std::span<const runbook> books)
    -> std::vector<simulation_result> {
  std::vector<simulation_result> results(books.size());
  std::vector<moment> moments;
  const routing index(*context.original);
  for (std::size_t k = 0; k < books.size(); ++k) {
    // One world at a time: what stays is its failures and the moments its owners went through.
    auto w = make_world(context, index, books[k]);
    run(context, books[k], k, w, results[k], moments);
    results[k].failures = std::move(w.failures);
  }
  check_moments(context, moments, results);
  for (std::size_t k = 0; k < books.size(); ++k) {
    std::stable_sort(results[k].failures.begin(), results[k].failures.end(),
                     [](const simulation_failure& a, const simulation_failure& b) {
                       return std::tie(a.step, a.check) < std::tie(b.step, b.check);
                     });
  }
  return results;
}

auto simulate_runbook(const simulation_context& context, const runbook& book) -> simulation_result {
  return std::move(simulate_runbooks(context, std::span(&book, 1)).front());
}

}  // namespace cidrcheck
