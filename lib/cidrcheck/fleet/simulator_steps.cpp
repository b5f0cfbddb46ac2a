// The simulator's rules: what each kind of step does to the model, and what
// upstream does in reaction (kube-apiserver, kube-controller-manager, kubelet,
// kube-proxy, the CNI). Each behaviour names its simulation_rule, whose row in
// fleet/simulator.hpp cites the fact of docs/migration-facts.md it rests on.

#include "simulator_world.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace cidrcheck::detail::sim {

// --- the model's small pieces --------------------------------------------------

auto component_state::get(std::string_view name) const -> const setting_value* {
  for (const auto& [key, value] : running) {
    if (key == name) return &value;
  }
  return nullptr;
}

auto component_state::get_written(std::string_view name) const -> const setting_value* {
  for (const auto& [key, value] : written) {
    if (key == name) return &value;
  }
  return nullptr;
}

auto component_state::gate(std::string_view name) const -> bool {
  return std::find(gates_on.begin(), gates_on.end(), name) != gates_on.end();
}

auto component_state::serves(std::string_view group_version) const -> bool {
  return std::find(apis.begin(), apis.end(), group_version) != apis.end();
}

void component_state::write(std::string_view name, setting_value value) {
  for (auto& [key, old] : written) {
    if (key == name) {
      old = std::move(value);
      return;
    }
  }
  written.emplace_back(std::string(name), std::move(value));
}

auto cluster_world::state_of(component target) -> component_state* {
  return const_cast<component_state*>(std::as_const(*this).state_of(target));
}

auto cluster_world::state_of(component target) const -> const component_state* {
  switch (target) {
    case component::kube_apiserver: return &apiserver;
    case component::kube_controller_manager: return &controller_manager;
    case component::kubelet: return &kubelet;
    case component::kube_proxy: return &kube_proxy;
    case component::cni_agent: return &cni_agent;
    case component::cluster_dns:
    case component::cni_operator:
    case component::etcd: break;
  }
  return nullptr;
}

void component_state::set_running(std::string_view name, setting_value value) {
  write(name, std::move(value));
  running = written;
}

void component_state::restart() {
  running = written;
  gates_on = gates_written;
  apis = apis_written;
  up = true;
  why_down.clear();
  down_rule.reset();
}

auto world::cluster_of(std::uint32_t owner) -> cluster_world* {
  for (auto& c : clusters) {
    if (c.owner == owner) return &c;
  }
  return nullptr;
}

auto world::cluster_of_const(std::uint32_t owner) const -> const cluster_world* {
  for (const auto& c : clusters) {
    if (c.owner == owner) return &c;
  }
  return nullptr;
}

auto inside(const std::vector<prefix>& ranges, const address& a) -> bool {
  return std::any_of(ranges.begin(), ranges.end(), [&](const prefix& p) { return p.contains(a); });
}

auto plain_ranges(const fleet& f, const owner& o, range_role role) -> std::vector<prefix> {
  std::vector<prefix> out;
  for (auto k : o.ranges) {
    // A range the input gives only a size of (`pods: /15`) has no address yet: nothing uses it.
    const auto& r = f.ranges[k];
    if (r.role == role && r.is_plain() && r.cidr.is_valid()) out.push_back(r.cidr);
  }
  return out;
}

auto ranges_of(const setting_value* value) -> std::vector<prefix> {
  if (value == nullptr) return {};
  if (const auto* list = std::get_if<std::vector<prefix>>(value)) return *list;
  return {};
}

auto addresses_of(const setting_value* value) -> std::vector<address> {
  if (value == nullptr) return {};
  if (const auto* list = std::get_if<std::vector<address>>(value)) return *list;
  return {};
}

auto running(const pod& p) -> bool { return p.ip.has_value(); }

void fail(std::vector<simulation_failure>& failures, std::size_t step, simulation_check check,
          std::optional<simulation_rule> rule, std::string message) {
  for (auto& f : failures) {
    if (f.check != check || f.rule != rule) continue;
    if (step < f.step) f = {step, check, rule, std::move(message)};  // the earliest is the one that counts
    return;
  }
  failures.push_back({step, check, rule, std::move(message)});
}

void fail(world& w, std::size_t step, simulation_check check, std::optional<simulation_rule> rule,
          std::string message) {
  fail(w.failures, step, check, rule, std::move(message));
}

namespace {

auto text_of(const std::vector<prefix>& ranges) -> std::string {
  std::string out;
  for (const auto& p : ranges) out += (out.empty() ? "" : ",") + p.to_string();
  return out.empty() ? std::string("nothing") : out;
}

// An address inside p that nothing in the cluster holds yet; nullopt when p is
// too small to hand out another. The cursor makes every address distinct.
auto fresh_address(cluster_world& c, const prefix& p) -> std::optional<address> {
  const uint128 size = p.size();
  if (size < 4) return std::nullopt;
  const uint128 offset = 2 + static_cast<uint128>(c.next_address++) % (size - 3);
  return address::from_bits(p.version(), p.network().bits() + offset);
}

auto find_service(cluster_world& c, std::string_view ns, std::string_view name) -> service* {
  for (auto& s : c.services) {
    if (s.namespace_name == ns && s.name == name) return &s;
  }
  return nullptr;
}

auto kubernetes_service(cluster_world& c) -> service* {
  for (auto& s : c.services) {
    if (s.kind == service_kind::kubernetes) return &s;
  }
  return nullptr;
}

auto find_service_cidr(cluster_world& c, std::string_view name) -> service_cidr_object* {
  for (auto& s : c.service_cidrs) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

// The node at a dotted path of an object's body ("spec.cidrs"), or nullptr.
auto field(const doc_map& body, std::string_view path) -> const doc_node* {
  auto dot = path.find('.');
  auto key = path.substr(0, dot);
  for (const auto& [k, v] : body) {
    if (k == key) return dot == std::string_view::npos ? &v : v.find(path.substr(dot + 1));
  }
  return nullptr;
}

auto inside_any(const std::vector<prefix>& ranges, const prefix& p) -> bool {
  return std::any_of(ranges.begin(), ranges.end(), [&](const prefix& r) { return p.subnet_of(r); });
}

auto apiserver_flag_ranges(const cluster_world& c) -> std::vector<prefix> {
  return ranges_of(c.apiserver.get(service_range_flag));
}

}  // namespace

auto serves_service_cidrs(const cluster_world& c) -> bool {
  // servicecidr_served: the gate on kube-apiserver and, before GA, the group
  // version enabled with --runtime-config.
  if (!c.servicecidr_kind || !c.apiserver.up || !c.apiserver.gate(service_cidr_gate)) return false;
  return c.servicecidr_default_on || c.apiserver.serves(c.servicecidr_api);
}

auto serving_ranges(const cluster_world& c) -> std::vector<std::pair<prefix, const service_cidr_object*>> {
  std::vector<std::pair<prefix, const service_cidr_object*>> out;
  if (serves_service_cidrs(c)) {
    // servicecidr_terminating: one being deleted hands out nothing.
    for (const auto& s : c.service_cidrs) {
      if (s.deleting) continue;
      for (const auto& p : s.cidrs) out.emplace_back(p, &s);
    }
    return out;
  }
  for (const auto& p : apiserver_flag_ranges(c)) out.emplace_back(p, nullptr);
  return out;
}

void settle(cluster_world& c) {
  const bool api = serves_service_cidrs(c);
  if (api && find_service_cidr(c, default_service_cidr) == nullptr) {
    // The default-ServiceCIDR controller of kube-apiserver recreates `kubernetes`
    // from its current flag, without a finalizer (servicecidr_recreated).
    auto flag = apiserver_flag_ranges(c);
    if (!flag.empty()) {
      c.service_cidrs.push_back({std::string(default_service_cidr), flag, false, false});
      c.default_recreated = c.default_removed;
    }
  }
  // servicecidr_finalizer: only kube-controller-manager's controller, with the
  // gate on there, adds the finalizer and removes it once deletion is safe.
  if (!api || !c.controller_manager.up || !c.controller_manager.gate(service_cidr_gate)) return;
  for (auto& s : c.service_cidrs) {
    if (!s.deleting) s.finalizer = true;
  }
  std::erase_if(c.service_cidrs, [&](const service_cidr_object& s) {
    if (!s.deleting) return false;
    // Safe once every address it holds is also held by a ServiceCIDR that stays.
    for (const auto& svc : c.services) {
      for (const auto& ip : svc.ips) {
        if (!inside(s.cidrs, ip)) continue;
        bool covered = std::any_of(c.service_cidrs.begin(), c.service_cidrs.end(), [&](const service_cidr_object& o) {
          return &o != &s && !o.deleting && inside(o.cidrs, ip);
        });
        if (!covered) return false;
      }
    }
    return true;
  });
}


auto node_ipam_on(const cluster_world& c) -> bool {
  const auto* allocate = c.controller_manager.get(allocate_node_cidrs_flag);
  return allocate == nullptr || !std::holds_alternative<bool>(*allocate) || std::get<bool>(*allocate);
}


namespace {

// The pod address a pod scheduled on node n gets: from the node's podCIDR
// (node IPAM), or from an enabled pool, the oldest first (pool_disabled).
auto allocate_pod_ip(cluster_world& c, const node& n) -> std::optional<std::pair<address, std::string>> {
  if (c.node_blocks_from_pools) {
    if (n.cni_cidrs.empty()) return std::nullopt;
    auto a = fresh_address(c, n.cni_cidrs.front());
    if (!a) return std::nullopt;
    std::string name;
    for (const auto& p : c.pools) {
      if (p.cidr.contains(*a)) name = p.name;
    }
    return std::pair{*a, name};
  }
  if (c.addresses == pod_addresses::node_pod_cidr) {
    if (n.pod_cidrs.empty()) return std::nullopt;
    const auto& cidr = n.pod_cidrs.front();
    if (c.flannel && (!n.network_pod_cidr || !cidr.subnet_of(*n.network_pod_cidr))) return std::nullopt;
    auto a = fresh_address(c, cidr);
    if (!a) return std::nullopt;
    return std::pair{*a, std::string()};
  }
  if (n.custom_networking) {
    if (!n.eni_subnet) return std::nullopt;
    auto a = fresh_address(c, *n.eni_subnet);
    for (const auto& p : c.pools) {
      if (a && p.cidr.contains(*a)) return std::pair{*a, p.name};
    }
    return std::nullopt;
  }
  for (const auto& p : c.pools) {
    if (p.disabled || p.by_eniconfig) continue;
    auto a = fresh_address(c, p.cidr);
    if (a) return std::pair{*a, p.name};
  }
  return std::nullopt;
}


auto schedulable(const node& n) -> bool {
  return n.registered && n.kubelet && !n.cordoned && (!n.control_plane || !n.marked);
}


}  // namespace

// Starts pod p again on a schedulable node (its old one if it can): a new
// address, and the kubernetes.default address and DNS address of now
// (pod_environment, pod_nameserver). With nowhere to run, it has no address.
void start_pod(cluster_world& c, pod& p) {
  std::optional<std::size_t> where;
  if (schedulable(c.nodes[p.node])) where = p.node;
  for (std::size_t k = 0; !where && k < c.nodes.size(); ++k) {
    if (schedulable(c.nodes[k])) where = k;
  }
  p.ip.reset();
  p.pool.clear();
  if (!where) return;
  p.node = *where;
  auto ip = allocate_pod_ip(c, c.nodes[*where]);
  if (!ip) return;
  p.ip = ip->first;
  p.pool = ip->second;
  const auto* k = kubernetes_service(c);
  p.api_host = k != nullptr && !k->ips.empty() ? std::optional<address>(k->ips.front()) : std::nullopt;
  auto dns = addresses_of(c.kubelet.get(cluster_dns_field));
  p.nameserver = dns.empty() ? std::nullopt : std::optional<address>(dns.front());
}


namespace {

// A free block of `ranges` for one node, the first range first: none of
// `taken(node)` of any node holds it; nullopt when every range is full.
template <class Taken>
auto free_block(const cluster_world& c, const std::vector<prefix>& ranges, Taken&& taken) -> std::optional<prefix> {
  for (const auto& cidr : ranges) {
    int length = std::min(cidr.width(), cidr.length() + 4);
    for (std::size_t k = 0;; ++k) {
      auto block = prefix::containing(
          address::from_bits(cidr.version(), cidr.network().bits() + (static_cast<uint128>(k) << (cidr.width() - length))),
          length);
      if (!cidr.contains(block.network())) break;
      bool used = std::any_of(c.nodes.begin(), c.nodes.end(), [&](const node& o) {
        const auto& held = taken(o);
        return std::find(held.begin(), held.end(), block) != held.end();
      });
      if (!used) return block;
    }
  }
  return std::nullopt;
}

}  // namespace

// A registering node takes a podCIDR from --cluster-cidr while node IPAM runs
// (node_ipam_allocates); its CNI agent starts and reads its configuration as
// it is written; where the CNI cuts its own blocks (a CiliumNode's), it takes
// one from the pools the operator read, the oldest first.
void assign_pod_cidr(cluster_world& c, node& n) {
  n.pod_cidrs.clear();
  if (c.controller_manager.up && node_ipam_on(c)) {
    for (const auto& cidr : ranges_of(c.controller_manager.get(cluster_cidr_flag))) {
      if (auto block = free_block(c, {cidr}, [](const node& o) -> const std::vector<prefix>& { return o.pod_cidrs; })) {
        n.pod_cidrs.push_back(*block);
      }
    }
  }
  if (c.flannel) {
    auto network = ranges_of(c.cni_agent.get_written(c.range_field));
    n.network_pod_cidr = network.empty() ? std::nullopt : std::optional<prefix>(network.front());
  }
  // eks-custom-cfg: the agent reads the switch when the node starts, and takes
  // pod addresses from the subnet of the node's zone's ENIConfig; without one,
  // none (eks-custom-no-eniconfig).
  if (c.addresses == pod_addresses::network) {
    n.custom_networking = c.custom_networking_written;
    const auto zone = static_cast<std::size_t>(n.subnet);
    n.eni_subnet = n.custom_networking && zone < c.eniconfigs.size() && zone < c.pod_subnets.size()
                       ? std::optional<prefix>(c.pod_subnets[zone])
                       : std::nullopt;
  }
  if (c.node_blocks_from_pools) {
    n.cni_cidrs.clear();
    std::vector<prefix> ranges;
    for (const auto& p : c.operator_pools) {
      if (!p.disabled) ranges.push_back(p.cidr);
    }
    if (auto block = free_block(c, ranges, [](const node& o) -> const std::vector<prefix>& { return o.cni_cidrs; })) {
      n.cni_cidrs.push_back(*block);
    }
  }
}

namespace {

// --- execution ------------------------------------------------------------------

struct executor {
  world& w;
  const fleet& planned;
  std::size_t index;
  const runbook_step& step;
  cluster_world* c = nullptr;
  /// The step edits a configuration that takes effect only at the next
  /// apply_configuration (config-apply-separate): it writes, restarts nothing.
  bool waits = false;

  void refuse(std::optional<simulation_rule> rule, std::string message) {
    fail(w, index, simulation_check::step_refused, rule, std::move(message));
  }

  auto component_of(component target) -> component_state* { return c->state_of(target); }

  // A component restarts on every member and reads what was written for it;
  // whether it then runs is the rules' (service_range_flag, cluster_cidr_flag, kcm_refuses).
  void restart(component target) {
    // The CNI's operator reads the pools when it starts (cilium-multipool-update).
    if (target == component::cni_operator) c->operator_pools = c->pools;
    auto* state = component_of(target);
    if (state == nullptr) return;
    state->restart();
    switch (target) {
      case component::kube_apiserver: start_apiserver(); break;
      case component::kube_controller_manager: start_controller_manager(); break;
      case component::cni_agent: start_cni_agent(); break;
      default: break;
    }
    settle(*c);
  }

  void start_apiserver() {
    auto ranges = apiserver_flag_ranges(*c);
    bool families_differ = ranges.size() < 2 || ranges[0].version() != ranges[1].version();
    if (ranges.empty() || ranges.size() > 2 || !families_differ) {
      c->apiserver.up = false;
      c->apiserver.why_down = "--service-cluster-ip-range " + text_of(ranges) +
                              " is refused: at most two CIDRs, of different families";
      c->apiserver.down_rule = simulation_rule::service_range_flag;
    }
    // svc-reconfigure-order: the sans of a roll follow the spec where the profile says so.
    if (c->sans_from_spec) reissue({}, {});
  }

  void start_controller_manager() {
    auto& kcm = c->controller_manager;
    auto cidrs = ranges_of(kcm.get(cluster_cidr_flag));
    if (cidrs.size() > 2 || (cidrs.size() == 2 && cidrs[0].version() == cidrs[1].version())) {
      kcm.up = false;
      kcm.why_down = "--cluster-cidr " + text_of(cidrs) + " is refused: one CIDR per IP family";
      kcm.down_rule = simulation_rule::cluster_cidr_flag;
      return;
    }
    if (!node_ipam_on(*c)) return;
    for (const auto& n : c->nodes) {
      if (!n.registered) continue;
      for (const auto& p : n.pod_cidrs) {
        bool held = std::any_of(cidrs.begin(), cidrs.end(), [&](const prefix& r) { return p.subnet_of(r); });
        if (held) continue;
        kcm.up = false;
        kcm.why_down = "Node " + n.name + " holds podCIDR " + p.to_string() + ", outside --cluster-cidr " +
                       text_of(cidrs) + ": the node IPAM controller fails to mark it as occupied";
        kcm.down_rule = simulation_rule::kcm_refuses;
        return;
      }
    }
  }

  // flannel_network: the agent reads Network when it starts and refuses a node
  // whose podCIDR lies outside it; its pods lose their network.
  void start_cni_agent() {
    if (!c->flannel) return;
    auto network = ranges_of(c->cni_agent.get(c->range_field));
    for (auto& n : c->nodes) {
      if (!n.kubelet) continue;
      n.network_pod_cidr = network.empty() ? std::nullopt : std::optional<prefix>(network.front());
    }
  }

  // The extra SANs the configuration lists: `add` in, `drop` out.
  void list_sans(const std::vector<address>& add, const std::vector<address>& drop) {
    for (const auto& a : add) {
      if (std::find(c->extra_sans.begin(), c->extra_sans.end(), a) == c->extra_sans.end()) c->extra_sans.push_back(a);
    }
    std::erase_if(c->extra_sans, [&](const address& a) { return std::find(drop.begin(), drop.end(), a) != drop.end(); });
  }

  void reissue(const std::vector<address>& add, const std::vector<address>& drop) {
    list_sans(add, drop);
    // certificate_sans: the first address of the range the issuer reads (the stored
    // configuration where the profile keeps one, else the running flag) and the extra SANs.
    c->certificate = c->extra_sans;
    auto ranges = apiserver_flag_ranges(*c);
    for (const auto& place : c->places) {
      if (place.target != component::kube_apiserver || place.setting != service_range_flag) continue;
      for (const auto& f : c->stored) {
        if (f.store == place.store && f.field == place.field && !ranges_of(&f.value).empty()) ranges = ranges_of(&f.value);
      }
    }
    if (!ranges.empty()) {
      auto first = ranges.front().network().next();
      if (std::find(c->certificate.begin(), c->certificate.end(), first) == c->certificate.end()) {
        c->certificate.push_back(first);
      }
    }
  }

  // --- allocation ---------------------------------------------------------------

  // A cluster IP for a new Service of family v: from any range that still
  // allocates (clusterip_allocation). Where several do, the simulator takes one
  // outside `into` if there is one: upstream promises nothing else.
  auto allocate_cluster_ip(ip_version v, const std::vector<prefix>& into)
      -> std::optional<std::pair<address, const service_cidr_object*>> {
    std::optional<std::pair<prefix, const service_cidr_object*>> choice;
    for (const auto& serving : serving_ranges(*c)) {  // not a structured binding: clang before 16 refuses one a lambda captures
      const auto& [p, owner] = serving;
      if (p.version() != v) continue;
      const prefix& range = p;
      bool wanted = into.empty() || std::any_of(into.begin(), into.end(), [&](const prefix& r) { return range.overlaps(r); });
      if (!choice || (!wanted && !into.empty())) choice = std::pair{p, owner};
      if (!wanted) break;
    }
    if (!choice) return std::nullopt;
    auto a = fresh_address(*c, choice->first);
    if (!a) return std::nullopt;
    return std::pair{*a, choice->second};
  }

  auto node_selected(const node& n, const node_selection& s) const -> bool {
    if (s.which == node_selection::role::control_plane && !n.control_plane) return false;
    if (s.which == node_selection::role::workers && n.control_plane) return false;
    if (s.pod_cidr_outside.empty()) return true;
    return std::any_of(n.pod_cidrs.begin(), n.pod_cidrs.end(), [&](const prefix& p) {
      return std::none_of(s.pod_cidr_outside.begin(), s.pod_cidr_outside.end(),
                          [&](const prefix& r) { return p.subnet_of(r); });
    });
  }

  // --- the kinds of step ---------------------------------------------------------

  void operator()(const set_flag& s) {
    // The provider runs the control plane; the node components stay the operator's.
    if (c->provider_control_plane &&
        (s.target == component::kube_apiserver || s.target == component::kube_controller_manager)) {
      return refuse(std::nullopt, "the provider runs " + std::string(to_string(s.target)) + ": " + s.flag +
                                      " is not the operator's to set");
    }
    auto* state = component_of(s.target);
    if (state == nullptr) return;
    state->write(s.flag, s.value);
    // Written where the profile places it (a static pod manifest and kubeadm's
    // ClusterConfiguration, a cluster spec, server flags, the kubelet's
    // configuration), as the step model's set_flag says: that store now says it.
    std::vector<component> readers{s.target};
    for (const auto& place : c->places) {
      if (place.target != s.target || place.setting != s.flag) continue;
      stored_value(place.store, place.field) = s.value;
      // Every component that reads the same field (k3s's --service-cidr, kops'
      // spec.serviceClusterIPRange) takes it too, at the restart that applies it.
      for (const auto& other : c->places) {
        if (other.store != place.store || other.field != place.field || other.target == s.target) continue;
        if (auto* reader = component_of(other.target)) reader->write(other.setting, s.value);
        readers.push_back(other.target);
      }
    }
    if (waits) {
      c->unapplied = true;
      return;
    }
    for (auto r : readers) restart(r);
    rerender_dns();
  }

  // dns_addon_rerender: where the distribution owns kube-dns, applying its
  // configuration re-applies kube-dns at the DNS address the configuration names.
  void rerender_dns() {
    if (!c->dns_by_distribution) return;
    auto named = addresses_of(c->kubelet.get_written(cluster_dns_field));
    auto* dns = find_service(*c, "kube-system", "kube-dns");
    if (named.empty() || dns == nullptr || dns->ips == std::vector<address>{named.front()}) return;
    const auto at = named.front();
    auto held = dns->ips;
    dns->ips.clear();
    if (!requestable(at)) {
      dns->ips = held;
      fail(w, index, simulation_check::dns, simulation_rule::dns_addon_rerender,
           "the distribution re-applies kube-dns at " + at.to_string() +
               ", the DNS address its configuration now names, and fails: another Service holds it, or no serving "
               "range does");
      return;
    }
    dns->ips = {at};
  }

  void operator()(const set_feature_gate& s) {
    for (auto target : s.targets) {
      auto* state = component_of(target);
      if (state == nullptr) continue;
      auto& gates = state->gates_written;
      std::erase(gates, s.gate);
      if (s.enabled) gates.push_back(s.gate);
      if (!waits) restart(target);
    }
    if (waits) {
      c->unapplied = true;
      return;
    }
    rerender_dns();
  }

  void operator()(const enable_api& s) {
    auto& apis = c->apiserver.apis_written;
    if (std::find(apis.begin(), apis.end(), s.group_version) == apis.end()) apis.push_back(s.group_version);
    if (waits) {
      c->unapplied = true;
      return;
    }
    restart(component::kube_apiserver);
  }

  // config-apply-separate: the edits written since the last apply take effect
  // together; each component the control-plane configuration sets restarts once
  // (the control plane first, as a kops rolling update goes), and a
  // distribution that renders kube-dns re-applies it.
  void operator()(const apply_configuration& s) {
    for (auto target : {component::kube_apiserver, component::kube_controller_manager, component::kubelet,
                        component::kube_proxy}) {
      bool configured = std::any_of(c->places.begin(), c->places.end(), [&](const auto& place) {
        return place.target == target && place.store == s.store;
      });
      if (configured) restart(target);
    }
    c->unapplied = false;
    rerender_dns();
  }

  // A stored configuration field: kept as what the next upgrade renders from
  // (upgrade_reverts compares it with what runs at the end), and written for
  // the component that reads it, which takes it at its next restart.
  void operator()(const edit_field& s) {
    if (waits) c->unapplied = true;
    auto& value = stored_value(s.store, s.path);
    value = edited(value, s);
    for (const auto& place : c->places) {
      if (place.store != s.store || place.field != s.path) continue;
      if (auto* state = component_of(place.target)) state->write(place.setting, value);
    }
    if (s.store == c->sans_store && s.path == c->sans_field) c->extra_sans = addresses_of(&value);
    // The CNI configuration's pod range list, where nodes take blocks from the
    // CNI's pools (Cilium's cluster-pool list): the pools the operator reads next.
    if (s.store == config_store::cni_configuration && s.path == c->range_field && c->node_blocks_from_pools) {
      std::erase_if(c->pools, [](const pool& p) { return p.name == listed_pool; });
      for (const auto& r : ranges_of(&value)) {
        pool p;
        p.name = std::string(listed_pool);
        p.cidr = r;
        p.ipip = encapsulation::always;
        c->pools.push_back(p);
      }
    }
    switch (s.store) {
      case config_store::kubelet_configuration: c->kubelet.write(s.path, value); break;
      case config_store::kube_proxy_configuration: c->kube_proxy.write(s.path, value); break;
      case config_store::cni_configuration: c->cni_agent.write(s.path, value); break;
      default: break;
    }
  }

  auto stored_value(config_store store, const std::string& path) -> setting_value& {
    for (auto& f : c->stored) {
      if (f.store == store && f.field == path) return f.value;
    }
    c->stored.push_back({store, path, setting_value{}});
    return c->stored.back().value;
  }

  // The field after the edit: set, or a list added to or removed from.
  static auto edited(const setting_value& old, const edit_field& s) -> setting_value {
    if (s.how == edit_field::mode::set) return s.value;
    return std::visit(
        [&](const auto& change) -> setting_value {
          using T = std::decay_t<decltype(change)>;
          if constexpr (std::is_same_v<T, std::vector<prefix>> || std::is_same_v<T, std::vector<address>> ||
                        std::is_same_v<T, std::vector<std::string>>) {
            T out;
            if (const auto* list = std::get_if<T>(&old)) out = *list;
            for (const auto& x : change) {
              auto at = std::find(out.begin(), out.end(), x);
              if (s.how == edit_field::mode::add && at == out.end()) out.push_back(x);
              if (s.how == edit_field::mode::remove && at != out.end()) out.erase(at);
            }
            return out;
          } else {
            return change;
          }
        },
        s.value);
  }

  void operator()(const apply_object& s) {
    const auto& o = s.object;
    if (o.kind == "ServiceCIDR") return apply_service_cidr(o);
    if (o.kind == "Service") return apply_service(o);
    if (o.kind == "IPPool") return apply_pool(s);
    if (o.kind == "CiliumPodIPPool") return apply_pod_ip_pool(s);
    if (o.kind == eniconfig_kind) {
      if (std::find(c->eniconfigs.begin(), c->eniconfigs.end(), o.name) == c->eniconfigs.end()) {
        c->eniconfigs.push_back(o.name);
      }
      return;
    }
    if (o.kind == "DaemonSet") return apply_agent_environment(o);
  }

  // The CNI agent's DaemonSet patched with the custom networking switch: the
  // agents that start from now on read it (eks-custom-cfg).
  void apply_agent_environment(const kube_object& o) {
    if (c->addresses != pod_addresses::network) return;  // only the IPAM profile says whose agent reads it
    const auto* containers = field(o.body, "spec.template.spec.containers");
    const auto* list = containers != nullptr ? std::get_if<doc_list>(&containers->value) : nullptr;
    if (list == nullptr) return;
    for (const auto& container : *list) {
      const auto* map = std::get_if<doc_map>(&container.value);
      const auto* env = map != nullptr ? field(*map, "env") : nullptr;
      const auto* vars = env != nullptr ? std::get_if<doc_list>(&env->value) : nullptr;
      if (vars == nullptr) continue;
      for (const auto& v : *vars) {
        const auto* entry = std::get_if<doc_map>(&v.value);
        const auto* name = entry != nullptr ? field(*entry, "name") : nullptr;
        const auto* value = entry != nullptr ? field(*entry, "value") : nullptr;
        const auto* name_text = name != nullptr ? std::get_if<std::string>(&name->value) : nullptr;
        const auto* value_text = value != nullptr ? std::get_if<std::string>(&value->value) : nullptr;
        if (name_text != nullptr && value_text != nullptr && *name_text == custom_network_variable) {
          c->custom_networking_written = *value_text == "true";
        }
      }
    }
  }

  // The apiVersion and tool the IPAM profile says pools take (calico_tool).
  auto pool_api_refused(const apply_object& s) -> bool {
    const auto& o = s.object;
    if (!c->pool_api.empty() && o.api_version != c->pool_api) {
      refuse(simulation_rule::calico_tool, o.kind + " " + o.name + " is written as " + o.api_version +
                                               "; this cluster's pools are " + c->pool_api + " objects");
      return true;
    }
    if (s.tool == object_tool::kubectl && !c->calico_api_server) {
      refuse(simulation_rule::calico_tool, "kubectl does not serve " + o.api_version + " on this cluster: " + o.kind +
                                               " " + o.name + " needs the tool its profile names");
      return true;
    }
    return false;
  }

  // A CiliumPodIPPool: its CIDRs become the pool's rows, taken from any other
  // pool that held them (one CIDR, one pool: the covering pool of the
  // cluster-pool migration takes over what cluster-pool handed out). The
  // operator reads pools when it restarts.
  void apply_pod_ip_pool(const apply_object& s) {
    const auto& o = s.object;
    if (pool_api_refused(s)) return;
    std::vector<prefix> cidrs;
    for (const char* family : {"spec.ipv4.cidrs", "spec.ipv6.cidrs"}) {
      const auto* node = field(o.body, family);
      const auto* list = node != nullptr ? std::get_if<doc_list>(&node->value) : nullptr;
      if (list == nullptr) continue;
      for (const auto& item : *list) {
        if (const auto* text = std::get_if<std::string>(&item.value)) {
          if (auto p = prefix::try_parse(*text)) cidrs.push_back(*p);
        }
      }
    }
    std::erase_if(c->pools, [&](const pool& p) {
      return p.name == o.name || std::find(cidrs.begin(), cidrs.end(), p.cidr) != cidrs.end();
    });
    for (const auto& cidr : cidrs) {
      pool p;
      p.name = o.name;
      p.cidr = cidr;
      p.ipip = encapsulation::always;
      c->pools.push_back(p);
    }
  }

  void apply_service_cidr(const kube_object& o) {
    if (!c->servicecidr_kind) {
      return refuse(simulation_rule::servicecidr_kind,
                    "this Kubernetes version has no ServiceCIDR kind: " + o.api_version + " ServiceCIDR " + o.name +
                        " cannot be applied");
    }
    if (!serves_service_cidrs(*c)) {
      return refuse(simulation_rule::servicecidr_served,
                    "kube-apiserver does not serve ServiceCIDRs yet (MultiCIDRServiceAllocator and " +
                        c->servicecidr_api + " are not both on): ServiceCIDR " + o.name + " cannot be applied");
    }
    if (o.api_version != c->servicecidr_api) {
      return refuse(simulation_rule::servicecidr_served, "ServiceCIDR " + o.name + " is written as " + o.api_version +
                                                             ", which this Kubernetes version does not serve (it serves " +
                                                             c->servicecidr_api + ")");
    }
    std::vector<prefix> cidrs;
    if (const auto* node = field(o.body, "spec.cidrs")) {
      if (const auto* list = std::get_if<doc_list>(&node->value)) {
        for (const auto& item : *list) {
          if (const auto* text = std::get_if<std::string>(&item.value)) {
            if (auto p = prefix::try_parse(*text)) cidrs.push_back(*p);
          }
        }
      }
    }
    if (auto* existing = find_service_cidr(*c, o.name)) {
      if (existing->cidrs != cidrs) {
        refuse(simulation_rule::servicecidr_immutable,
               "ServiceCIDR " + o.name + " exists with " + text_of(existing->cidrs) + "; its cidrs cannot change to " +
                   text_of(cidrs));
      }
      return;
    }
    c->service_cidrs.push_back({o.name, cidrs, false, false});
    settle(*c);
  }

  void apply_service(const kube_object& o) {
    std::vector<address> ips;
    if (const auto* node = field(o.body, "spec.clusterIP")) {
      if (const auto* text = std::get_if<std::string>(&node->value)) {
        if (auto a = address::try_parse(*text)) ips.push_back(*a);
      }
    }
    if (auto* existing = find_service(*c, o.namespace_name, o.name)) {
      if (!ips.empty() && existing->ips != ips) {
        refuse(simulation_rule::clusterip_immutable, "Service " + o.namespace_name + "/" + o.name + " has cluster IP " +
                                                         (existing->ips.empty() ? std::string("None")
                                                                                : existing->ips.front().to_string()) +
                                                         ", which cannot change to " + ips.front().to_string());
      }
      return;
    }
    service s{o.namespace_name, o.name, service_kind::cluster_ip, {}};
    // A second DNS Service selects the cluster DNS pods as kube-dns does.
    if (const auto* selector = field(o.body, "spec.selector.k8s-app")) {
      if (const auto* text = std::get_if<std::string>(&selector->value); text != nullptr && *text == "kube-dns") {
        s.kind = service_kind::dns;
      }
    }
    if (!ips.empty()) {
      if (!requestable(ips.front())) {
        return refuse(simulation_rule::clusterip_immutable,
                      "cluster IP " + ips.front().to_string() + " of Service " + o.namespace_name + "/" + o.name +
                          " lies in no range kube-apiserver allocates from, or is taken");
      }
      s.ips = ips;
    } else {
      // A Service that asks for no address takes one of the cluster's primary family.
      auto flag = apiserver_flag_ranges(*c);
      auto v = flag.empty() ? ip_version::v4 : flag.front().version();
      if (auto ip = allocate_cluster_ip(v, {})) s.ips = {ip->first};
    }
    c->services.push_back(std::move(s));
  }

  auto requestable(const address& ip) const -> bool {
    bool serving = false;
    for (const auto& [p, owner] : serving_ranges(*c)) serving = serving || p.contains(ip);
    bool taken = std::any_of(c->services.begin(), c->services.end(), [&](const service& s) {
      return std::find(s.ips.begin(), s.ips.end(), ip) != s.ips.end();
    });
    return serving && !taken;
  }

  // A Calico pool: calico_tool says with which tool; pool_apply_replaces says
  // that fields an applied definition leaves out fall back to their defaults,
  // where a patch keeps them.
  void apply_pool(const apply_object& s) {
    const auto& o = s.object;
    if (pool_api_refused(s)) return;
    const bool patch = s.how == apply_object::mode::patch;
    auto mode = [&](std::string_view path) -> std::optional<encapsulation> {
      const auto* node = field(o.body, path);
      const auto* text = node != nullptr ? std::get_if<std::string>(&node->value) : nullptr;
      if (text == nullptr) return std::nullopt;
      if (*text == "Always") return encapsulation::always;
      if (*text == "CrossSubnet") return encapsulation::cross_subnet;
      return encapsulation::never;
    };
    auto flag = [&](std::string_view path) -> std::optional<bool> {
      const auto* node = field(o.body, path);
      const auto* value = node != nullptr ? std::get_if<bool>(&node->value) : nullptr;
      return value != nullptr ? std::optional<bool>(*value) : std::nullopt;
    };
    // What the definition sets, onto `onto` (a new pool's defaults, or the pool patched).
    auto written = [&](pool onto) {
      if (const auto* cidr = field(o.body, "spec.cidr")) {
        if (const auto* text = std::get_if<std::string>(&cidr->value)) {
          if (auto parsed = prefix::try_parse(*text)) onto.cidr = *parsed;
        }
      }
      if (auto m = mode("spec.ipipMode")) onto.ipip = *m;
      if (auto m = mode("spec.vxlanMode")) onto.vxlan = *m;
      if (auto b = flag("spec.natOutgoing")) onto.nat_outgoing = *b;
      if (auto b = flag("spec.disabled")) onto.disabled = *b;
      return onto;
    };
    // The existing pools it names: by name, or, where the runbook cannot know
    // the name, those holding a range the plan retires (the old pools).
    std::vector<pool*> existing;
    for (auto& q : c->pools) {
      if (o.name.empty() ? inside_any(c->retired, q.cidr) : q.name == o.name) existing.push_back(&q);
    }
    if (existing.empty()) {
      auto p = written(pool{});
      if (patch || !p.cidr.is_valid()) {
        return refuse(std::nullopt, "there is no IPPool " + (o.name.empty() ? o.name_hint : o.name) + " to change");
      }
      p.name = o.name.empty() ? "pool-" + p.cidr.to_string() : o.name;
      c->pools.push_back(p);
      return;
    }
    for (auto* e : existing) {
      pool defaults;
      defaults.name = e->name;
      defaults.cidr = e->cidr;
      auto p = written(patch ? *e : defaults);
      const bool weaker = std::max(p.ipip, p.vxlan) < std::max(e->ipip, e->vxlan);
      const bool used = std::any_of(c->pods.begin(), c->pods.end(), [&](const pod& x) { return running(x) && x.pool == e->name; });
      if (weaker && used && c->cross_subnet_needs_encapsulation) {
        fail(w, index, simulation_check::reachability, simulation_rule::pool_apply_replaces,
             "IPPool " + e->name + " applied without its ipipMode/vxlanMode: they fall back to Never, and its pods lose "
             "traffic between subnets");
      }
      *e = p;
    }
  }

  void operator()(const delete_object& s) {
    if (s.kind == "ServiceCIDR") {
      auto* obj = find_service_cidr(*c, s.name);
      if (obj == nullptr) return refuse(std::nullopt, "there is no ServiceCIDR " + s.name + " to delete");
      if (obj->finalizer) {
        obj->deleting = true;  // servicecidr_terminating
      } else {
        // servicecidr_finalizer: nothing holds it, so it goes at once.
        std::erase_if(c->service_cidrs, [&](const service_cidr_object& o) { return o.name == s.name; });
        c->default_removed = c->default_removed || s.name == default_service_cidr;
      }
      settle(*c);
      return;
    }
    if (s.kind == "IPPool") {
      // pool_in_use: its pods keep addresses no pool holds any more. A pool whose
      // name the runbook cannot know is the one holding a range the plan retires.
      auto gone = [&](const pool& p) { return s.name.empty() ? inside_any(c->retired, p.cidr) : p.name == s.name; };
      if (std::none_of(c->pools.begin(), c->pools.end(), gone)) {
        return refuse(std::nullopt, "there is no IPPool " + (s.name.empty() ? s.name_hint : s.name) + " to delete");
      }
      std::erase_if(c->pools, gone);
      return;
    }
    if (s.kind == "Service") {
      auto* svc = find_service(*c, s.namespace_name, s.name);
      if (svc == nullptr) return refuse(std::nullopt, "there is no Service " + s.namespace_name + "/" + s.name + " to delete");
      bool kubernetes = svc->kind == service_kind::kubernetes;
      std::erase_if(c->services, [&](const service& x) { return &x == svc; });
      if (kubernetes) recreate_kubernetes_service();
    }
  }

  // kubernetes_service_sticky: kube-apiserver recreates the deleted `kubernetes`
  // Service at the first address of its flag's primary range.
  void recreate_kubernetes_service() {
    auto ranges = apiserver_flag_ranges(*c);
    if (ranges.empty() || !c->apiserver.up) return;
    auto first = ranges.front().network().next();
    if (!requestable(first)) return;  // expect_into says so where the step promises it
    c->services.push_back({"default", "kubernetes", service_kind::kubernetes, {first}});
  }

  void operator()(const recreate_services& s) {
    std::vector<service*> chosen;
    for (auto& svc : c->services) {
      bool pick = false;
      switch (s.which) {
        case service_selection::cluster_ip: pick = svc.kind == service_kind::cluster_ip; break;
        case service_selection::load_balancer: pick = svc.kind == service_kind::load_balancer; break;
        case service_selection::dns: pick = svc.kind == service_kind::dns && svc.name == "kube-dns"; break;
        case service_selection::kubernetes_default: pick = svc.kind == service_kind::kubernetes; break;
        case service_selection::dual_stack_secondary: pick = svc.ips.size() > 1; break;
      }
      if (pick) chosen.push_back(&svc);
    }
    if (s.which == service_selection::kubernetes_default) {
      std::erase_if(c->services, [](const service& x) { return x.kind == service_kind::kubernetes; });
      recreate_kubernetes_service();
      expect_into(s, kubernetes_service(*c), "kubernetes");
      return;
    }
    if (s.which == service_selection::dual_stack_secondary) {
      // svc-secondary-family-patch: ipFamilyPolicy SingleStack and back gives a new
      // secondary address; the primary one stays.
      for (auto* svc : chosen) {
        auto v = svc->ips.back().version();
        svc->ips.pop_back();
        if (auto fresh = allocate_cluster_ip(v, s.into)) svc->ips.push_back(fresh->first);
        expect_into_secondary(s, *svc);
      }
      return;
    }
    for (auto* svc : chosen) {
      if (s.cluster_ip) {
        // The address is free once the Service that held it is deleted; a
        // temporary DNS Service holding the DNS address goes in the same command.
        auto held = svc->ips;
        svc->ips.clear();
        if (svc->kind == service_kind::dns) {
          std::erase_if(c->services, [&](const service& x) {
            return &x != svc && x.kind == service_kind::dns &&
                   std::find(x.ips.begin(), x.ips.end(), *s.cluster_ip) != x.ips.end();
          });
          svc = find_service(*c, "kube-system", "kube-dns");
        }
        if (!requestable(*s.cluster_ip)) {
          svc->ips = held;
          return refuse(simulation_rule::clusterip_immutable,
                        "cluster IP " + s.cluster_ip->to_string() + " for Service " + svc->namespace_name + "/" +
                            svc->name + " lies in no range kube-apiserver allocates from, or another Service holds it");
        }
        svc->ips = {*s.cluster_ip};
      } else {
        auto v = svc->ips.empty() ? ip_version::v4 : svc->ips.front().version();
        auto fresh = allocate_cluster_ip(v, s.into);
        if (!fresh) return refuse(std::nullopt, "no range allocates an address for Service " + svc->name);
        svc->ips = {fresh->first};
      }
      expect_into(s, svc, svc->name);
    }
  }

  // The step promises addresses in `into`: a Service that got one elsewhere
  // came from a range that still allocates (clusterip_allocation), or from a
  // default ServiceCIDR recreated from the old flag (servicecidr_recreated).
  void expect_into(const recreate_services& s, const service* svc, const std::string& name) {
    if (s.into.empty()) return;
    if (svc == nullptr || svc->ips.empty()) {
      fail(w, index, simulation_check::step_check, simulation_rule::kubernetes_service_sticky,
           "Service " + name + " was not recreated: its address " + "lies in no serving range");
      return;
    }
    if (inside(s.into, svc->ips.front())) return;
    const bool recreated = c->default_recreated;
    fail(w, index, simulation_check::step_check,
         recreated ? simulation_rule::servicecidr_recreated : simulation_rule::clusterip_allocation,
         "Service " + svc->namespace_name + "/" + name + " got " + svc->ips.front().to_string() + ", outside " +
             text_of(s.into) +
             (recreated ? ": the default ServiceCIDR was recreated from the old --service-cluster-ip-range and "
                          "allocates again"
                        : ": a range outside it still allocates"));
  }

  void expect_into_secondary(const recreate_services& s, const service& svc) {
    if (s.into.empty() || (svc.ips.size() > 1 && inside(s.into, svc.ips.back()))) return;
    fail(w, index, simulation_check::step_check, simulation_rule::clusterip_allocation,
         "Service " + svc.namespace_name + "/" + svc.name + " got no secondary address in " + text_of(s.into));
  }

  void operator()(const reissue_certificate& s) {
    if (c->provider_control_plane) return refuse(std::nullopt, "the provider issues the API server certificate");
    if (waits) {
      // Listed in the cluster spec: the certificate follows when kube-apiserver restarts at the apply.
      list_sans(s.sans, s.drop);
      c->unapplied = true;
      return;
    }
    reissue(s.sans, s.drop);
  }

  void operator()(const drain_nodes& s) {
    for (auto& n : c->nodes) {
      if (node_selected(n, s.nodes)) n.cordoned = true;
    }
    reschedule();
  }

  void operator()(const remove_nodes& s) {
    for (auto& n : c->nodes) {
      if (!node_selected(n, s.nodes)) continue;
      // A kubelet left running registers its node again only at its restart (kubelet-register-once).
      n.kubelet = n.kubelet && s.keep_kubelets;
      n.registered = false;
      n.pod_cidrs.clear();  // node_podcidr_immutable: a new one only by registering again
    }
    reschedule();
  }

  void operator()(const register_nodes& s) {
    for (auto& n : c->nodes) {
      if (n.registered || !node_selected(n, s.nodes)) continue;
      n.registered = true;
      n.kubelet = true;
      n.cordoned = false;
      assign_pod_cidr(*c, n);
      // control_plane_reregister: kubeadm's label and taint are not the kubelet's to set.
      if (n.control_plane) n.marked = s.restore_control_plane;
    }
    reschedule();
  }

  void operator()(const roll_nodes& s) {
    for (auto& n : c->nodes) {
      if (!node_selected(n, s.nodes)) continue;
      // A rolled node comes back as a new node: it registers again.
      n.pod_cidrs.clear();
      if (n.control_plane) {
        restart(component::kube_apiserver);
        restart(component::kube_controller_manager);
      }
      assign_pod_cidr(*c, n);
      n.cordoned = false;
    }
    restart(component::kubelet);
    restart(component::kube_proxy);
    restart(component::cni_agent);
    move_pods();
  }

  // New node pools whose pods take addresses in `ranges` replace the old ones
  // (a node pool's pod range is set when it is created, gke-nodepool-range):
  // the cluster's other pod ranges stay, but no new pod takes an address there.
  void roll_into_pod_range(const std::vector<prefix>& ranges) {
    for (auto& p : c->pools) p.disabled = !inside_any(ranges, p.cidr);
    if (c->addresses == pod_addresses::node_pod_cidr) {
      // The provider numbers the new pools' nodes from `ranges`; the other ranges stay attached.
      for (const auto& r : ranges_of(c->controller_manager.get(cluster_cidr_flag))) {
        if (!inside_any(ranges, r)) c->attached.push_back(r);
      }
      c->controller_manager.set_running(cluster_cidr_flag, ranges);
    }
    (*this)(roll_nodes{{node_selection::role::workers, {}}});
  }

  void operator()(const restart_workloads& s) {
    for (const auto& name : s.scale_up_first) {
      if (name.find("coredns") != std::string::npos) c->coredns_scaled = true;
    }
    switch (s.which) {
      case workload_selection::component: return restart(s.target);
      case workload_selection::all_pods: return move_pods();
      case workload_selection::pods_in_ranges: return move_pods(&s.ranges);
      case workload_selection::scale_up: return;  // the scale-up above is the whole step
    }
  }

  // Pods restarted a few at a time: each starts again with what holds now.
  // scale_before_roll: while pods move between pools, CoreDNS with only its
  // usual replicas has a moment where none answers.
  void move_pods(const std::vector<prefix>* only = nullptr) {
    bool between_pools = false;
    for (auto& p : c->pods) {
      if (only != nullptr && !(p.ip && inside(*only, *p.ip))) continue;
      auto was = p.pool;
      start_pod(*c, p);
      between_pools = between_pools || (running(p) && !was.empty() && p.pool != was);
    }
    if (between_pools && !c->coredns_scaled && c->pods_move_at_restart) {
      fail(w, index, simulation_check::dns, simulation_rule::scale_before_roll,
           "pods move between pools while CoreDNS runs with its usual replicas: name resolution fails while they move");
    }
  }

  // Pods on nodes that can no longer run them start elsewhere (or nowhere).
  void reschedule() {
    for (auto& p : c->pods) {
      const auto& n = c->nodes[p.node];
      if (p.ip && n.registered && n.kubelet && !n.cordoned) continue;
      start_pod(*c, p);
    }
  }

  void operator()(const advertise_route& s) { change_route(s.cidr, s.connection, s.route, true); }
  void operator()(const withdraw_route& s) { change_route(s.cidr, s.connection, s.route, false); }

  void change_route(const prefix& cidr, std::optional<std::uint32_t> connection, std::optional<std::uint32_t> route,
                    bool add) {
    // A connection step changes what the connection carries toward the step's
    // owner only (the same connection also carries its other members' ranges);
    // a declared route is one route, whichever owner's runbook names it.
    bool found = false;
    for (auto& r : w.routes) {
      if ((connection && r.connection == connection && r.owner == step.owner) || (route && r.route == route)) {
        found = true;
        if (add) {
          if (std::find(r.prefixes.begin(), r.prefixes.end(), cidr) == r.prefixes.end()) r.prefixes.push_back(cidr);
        } else {
          std::erase(r.prefixes, cidr);
        }
      }
    }
    if (!found) refuse(std::nullopt, "no connection or route of this runbook carries " + cidr.to_string());
  }

  // Provider-side changes: what they make available or take away. A range for
  // pods (role pods, or a managed cluster's pod range) is a pool pods can take
  // addresses from; a network range is space the owner uses.
  void operator()(const change_resource& s) {
    auto* net = network_of(step.owner);
    const bool adds = s.action == resource_action::create || s.action == resource_action::associate ||
                      s.action == resource_action::expand;
    switch (s.what) {
      case resource_kind::network:
      case resource_kind::secondary_range:
      case resource_kind::subnets:
        if (s.role == range_role::pods && c != nullptr) return change_pools(s, adds);
        if (c != nullptr && c->addresses == pod_addresses::network && change_pod_blocks(s, adds)) return;
        if (s.what == resource_kind::network && !adds) return delete_networks(s.ranges);
        if (net == nullptr) return;
        for (const auto& r : s.ranges) {
          std::erase(net->in_use, r);
          if (adds) net->in_use.push_back(r);
        }
        return;
      case resource_kind::pod_range:
        if (c != nullptr) change_pools(s, adds);
        return;
      case resource_kind::node_pool:
        if (s.role == range_role::pods && c != nullptr && adds) return roll_into_pod_range(s.ranges);
        // New node groups in the ranges the step names (a new network, adobe-order):
        // the cluster's nodes, so its network ranges in use, are there as the plan
        // numbers them; the old ones stay in use until the old network is deleted.
        if (net == nullptr || !adds) return;
        for (const auto& r : planned_ranges(step.owner, range_role::network)) {
          if (inside_any(s.ranges, r) && std::find(net->in_use.begin(), net->in_use.end(), r) == net->in_use.end()) {
            net->in_use.push_back(r);
          }
        }
        return;
      case resource_kind::cluster:
        if (s.action == resource_action::create) return s.role ? create_cluster(*s.role, s.ranges) : replace_cluster();
        if (s.action == resource_action::remove) return retire_cluster();
        return;
      case resource_kind::peering: return;
    }
  }

  auto network_of(std::uint32_t owner) -> network_world* {
    for (auto& n : w.networks) {
      if (n.owner == owner) return &n;
    }
    return nullptr;
  }

  // The owner's ranges of a role as the plan numbers them.
  auto planned_ranges(std::uint32_t owner, range_role role) const -> std::vector<prefix> {
    if (owner >= planned.owners.size()) return {};
    return plain_ranges(planned, planned.owners[owner], role);
  }

  // A network deleted takes everything in it along: every range of the runbook's
  // owners inside it (the subnets of a VPC, the old network of clusters moved out) is gone.
  void delete_networks(const std::vector<prefix>& gone) {
    for (auto& n : w.networks) std::erase_if(n.in_use, [&](const prefix& r) { return inside_any(gone, r); });
  }

  // VPC CNI custom networking (eks-custom-cfg, eks-custom-nodes): where pods take
  // network addresses, a VPC block associated that the plan gives the cluster's
  // pods is a pool that hands out addresses only through an ENIConfig, the
  // subnets created in it are the ENIConfigs' subnets (not network ranges of
  // their own), and a pod range disassociated takes its pool along. Returns
  // whether the step was about pod space.
  auto change_pod_blocks(const change_resource& s, bool adds) -> bool {
    if (s.what == resource_kind::subnets) {
      if (!adds || !std::all_of(s.ranges.begin(), s.ranges.end(), [&](const prefix& r) { return in_pod_block(r); })) {
        return false;
      }
      for (const auto& r : s.ranges) c->pod_subnets.push_back(r);
      return true;
    }
    if (s.what != resource_kind::secondary_range) return false;
    if (adds) {
      const auto pods = planned_ranges(c->owner, range_role::pods);
      if (!std::all_of(s.ranges.begin(), s.ranges.end(),
                       [&](const prefix& r) { return std::find(pods.begin(), pods.end(), r) != pods.end(); })) {
        return false;
      }
      for (const auto& r : s.ranges) {
        pool p;
        p.name = "block-" + r.to_string();
        p.cidr = r;
        p.by_eniconfig = true;
        c->pools.push_back(p);
      }
      return true;
    }
    auto gone = [&](const pool& p) { return std::find(s.ranges.begin(), s.ranges.end(), p.cidr) != s.ranges.end(); };
    if (std::none_of(c->pools.begin(), c->pools.end(), gone)) return false;
    std::erase_if(c->pools, gone);  // pool_in_use: pods still numbered from it lose their addresses' network
    return true;
  }

  auto in_pod_block(const prefix& r) const -> bool {
    return std::any_of(c->pools.begin(), c->pools.end(), [&](const pool& p) { return p.by_eniconfig && r.subnet_of(p.cidr); });
  }

  // A pod range created, associated, expanded in place (a superset keeps every
  // pod where it is, aks-pod-expand), or given up.
  void change_pools(const change_resource& s, bool adds) {
    for (const auto& r : s.ranges) {
      if (!adds) {
        std::erase_if(c->pools, [&](const pool& p) { return p.cidr == r; });
        continue;
      }
      bool grown = s.action == resource_action::expand && grow_provider_setting(r);
      for (auto& p : c->pools) {
        if (s.action == resource_action::expand && p.cidr.subnet_of(r)) {
          p.cidr = r;
          grown = true;
        }
      }
      if (s.action == resource_action::expand && !grown) {
        refuse(simulation_rule::pod_range_superset, r.to_string() + " contains no pod range of the cluster");
        continue;
      }
      if (!grown && std::none_of(c->pools.begin(), c->pools.end(), [&](const pool& p) { return p.cidr == r; })) {
        pool p;
        p.name = "pool-" + r.to_string();
        p.cidr = r;
        p.ipip = p.vxlan = encapsulation::always;
        c->pools.push_back(p);
      }
    }
  }

  // Where the provider runs node IPAM, the range it grows in place is its own
  // setting (the profile's place of --cluster-cidr: AKS --pod-cidr), which
  // takes the grown range and runs at once (aks-pod-expand).
  auto grow_provider_setting(const prefix& r) -> bool {
    if (!c->provider_control_plane) return false;
    auto& kcm = c->controller_manager;
    auto ranges = ranges_of(kcm.get(cluster_cidr_flag));
    bool grown = false;
    for (auto& p : ranges) {
      if (!p.subnet_of(r)) continue;
      p = r;
      grown = true;
    }
    if (!grown) return false;
    kcm.write(cluster_cidr_flag, ranges);
    kcm.restart();
    for (const auto& place : c->places) {
      if (place.target == component::kube_controller_manager && place.setting == cluster_cidr_flag) {
        stored_value(place.store, place.field) = ranges;
      }
    }
    return true;
  }

  // The cluster created with the ranges the step names for a role (a range the
  // plan gives it at a requested size): it is built with them.
  void create_cluster(range_role role, const std::vector<prefix>& ranges) {
    if (c == nullptr) return;
    *c = w.created_with(c->owner, role, ranges);
  }

  // A replacement cluster beside the old one, numbered as the plan says: it
  // serves the owner's workloads once the old one is retired (retire_cluster).
  void replace_cluster() {
    if (c == nullptr || c->replacement) return;
    c->replacement = std::make_shared<cluster_world>(w.replacement_of(c->owner));
  }

  // The old cluster retired: its replacement takes its place, with the
  // workloads moved to it (a manual step), and its network ranges, numbered as
  // the plan says (replace-managed, blend-mirror); or nothing does.
  void retire_cluster() {
    if (c == nullptr) return;
    if (!c->replacement) {
      c->pods.clear();
      c->services.clear();
      c->pools.clear();
      c->nodes.clear();
      c->service_cidrs.clear();
      return;
    }
    auto next = std::move(*c->replacement);
    *c = std::move(next);
    if (auto* net = network_of(c->owner)) net->in_use = planned_ranges(c->owner, range_role::network);
  }
  void operator()(const take_backup&) {}
  void operator()(const verify&) {}
  void operator()(const find_out&) {}
  void operator()(const manual&) {}
};

}  // namespace

auto execute(world& w, const fleet& planned, std::size_t index, const runbook_step& step) -> bool {
  if (std::holds_alternative<manual>(step.action) || std::holds_alternative<find_out>(step.action)) return false;
  executor e{w, planned, index, step};
  e.c = w.cluster_of(step.owner);
  e.waits = e.c != nullptr && e.c->distribution != nullptr && e.c->distribution->edit_waits_for_apply(step.action);
  const bool on_cluster = !std::holds_alternative<advertise_route>(step.action) &&
                          !std::holds_alternative<withdraw_route>(step.action) &&
                          !std::holds_alternative<change_resource>(step.action) &&
                          !std::holds_alternative<take_backup>(step.action) && !std::holds_alternative<verify>(step.action);
  if (on_cluster && e.c == nullptr) {
    fail(w, index, simulation_check::step_refused, std::nullopt,
         "the step acts on " + (step.owner < planned.owners.size() ? planned.owners[step.owner].name : std::string("?")) +
             ", which is not a cluster of this runbook");
    return true;
  }
  std::visit(e, step.action);
  for (auto& c : w.clusters) settle(c);
  return true;
}

}  // namespace cidrcheck::detail::sim
