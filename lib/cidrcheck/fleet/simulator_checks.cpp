// The simulator's checks: after every step, that the control plane runs,
// workloads reach what they reached, the certificate names every address in
// use, DNS answers, and the step's own checks hold; the fleet each moment
// amounts to (projection); and at the end, that the state is the planned fleet.

#include "simulator_world.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace cidrcheck::detail::sim {

namespace {

auto text_of(const std::vector<prefix>& ranges) -> std::string {
  std::string out;
  for (const auto& p : ranges) out += (out.empty() ? "" : ",") + p.to_string();
  return out.empty() ? std::string("nothing") : out;
}

// A setting's value for messages: its ranges or addresses, else its word.
auto value_text(const setting_value* v) -> std::string {
  if (auto r = ranges_of(v); !r.empty()) return text_of(r);
  std::string out;
  for (const auto& a : addresses_of(v)) out += (out.empty() ? "" : ",") + a.to_string();
  if (!out.empty()) return out;
  if (const auto* b = std::get_if<bool>(v)) return *b ? "true" : "false";
  if (const auto* t = std::get_if<std::string>(v)) return *t;
  return "(unset)";
}

auto find_pool(const cluster_world& c, std::string_view name) -> const pool* {
  for (const auto& p : c.pools) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

auto dns_service_ip(const cluster_world& c, const address& a) -> bool {
  return std::any_of(c.services.begin(), c.services.end(), [&](const service& s) {
    return s.kind == service_kind::dns && std::find(s.ips.begin(), s.ips.end(), a) != s.ips.end();
  });
}

auto kubernetes_ip(const cluster_world& c) -> std::optional<address> {
  for (const auto& s : c.services) {
    if (s.kind == service_kind::kubernetes && !s.ips.empty()) return s.ips.front();
  }
  return std::nullopt;
}

// The strongest encapsulation of a pod's pool: what its traffic to another
// subnet has (where pods take node podCIDRs, the CNI carries it as it always did).
auto encapsulation_of(const cluster_world& c, const pod& p) -> encapsulation {
  if (c.addresses == pod_addresses::node_pod_cidr) return encapsulation::always;
  const auto* pl = find_pool(c, p.pool);
  if (pl == nullptr) return encapsulation::never;
  return std::max(pl->ipip, pl->vxlan);
}

// Why pod p has no address, for messages, with the rule behind it.
auto why_not_running(const cluster_world& c, const pod& p) -> std::pair<std::optional<simulation_rule>, std::string> {
  const auto& n = c.nodes[p.node];
  if (!n.registered || !n.kubelet || n.cordoned) {
    return {std::nullopt, "no node can run it (every node it may run on is cordoned or gone)"};
  }
  if (c.addresses == pod_addresses::node_pod_cidr) {
    if (n.pod_cidrs.empty()) {
      return {simulation_rule::node_ipam_allocates,
              "its node " + n.name + " has no podCIDR: kube-controller-manager gave it none"};
    }
    if (c.flannel) {
      return {simulation_rule::flannel_network,
              "flanneld on " + n.name + " refuses podCIDR " + n.pod_cidrs.front().to_string() + " outside its Network " +
                  (n.network_pod_cidr ? n.network_pod_cidr->to_string() : std::string("(none)"))};
    }
  }
  if (n.custom_networking && !n.eni_subnet) {
    return {simulation_rule::custom_networking,
            "custom networking is on, and no ENIConfig with a subnet serves the zone of its node " + n.name};
  }
  return {simulation_rule::pool_disabled, "no enabled pool has an address for it"};
}

// Everything the workloads of w could reach.
auto reach_targets(const world& w) -> std::vector<reach_target> {
  std::vector<reach_target> out;
  for (std::size_t k = 0; k < w.clusters.size(); ++k) {
    const auto& c = w.clusters[k];
    out.push_back({k, reach_target::kind::api, {}, {}});
    for (const auto& s : c.services) {
      if (s.kind == service_kind::cluster_ip || s.kind == service_kind::load_balancer) {
        out.push_back({k, reach_target::kind::service, s.namespace_name, s.name});
      }
    }
    out.push_back({k, reach_target::kind::peers, {}, {}});
    for (std::size_t r = 0; r < w.routes.size(); ++r) {
      if (w.routes[r].owner == c.owner) out.push_back({k, reach_target::kind::carried, {}, {}, r});
    }
  }
  return out;
}

// Whether the app workload of cluster c reaches t now; the reason and rule when not.
auto reaches(const world& w, const cluster_world& c, const reach_target& t)
    -> std::optional<std::pair<std::optional<simulation_rule>, std::string>> {
  std::vector<const pod*> apps;
  for (const auto& p : c.pods) {
    if (p.workload != "app") continue;
    if (!running(p)) {
      auto [rule, why] = why_not_running(c, p);
      return std::pair{rule, "a pod of the workload does not run: " + why};
    }
    apps.push_back(&p);
  }
  if (apps.empty()) {
    return std::pair{std::optional<simulation_rule>(), "the workload is gone: " + c.name + " runs none of its pods"};
  }
  switch (t.what) {
    case reach_target::kind::api: {
      auto current = kubernetes_ip(c);
      for (const auto* p : apps) {
        if (p->api_host && current && *p->api_host == *current) continue;
        return std::pair{std::optional(simulation_rule::pod_environment),
                         "a pod started with KUBERNETES_SERVICE_HOST " +
                             (p->api_host ? p->api_host->to_string() : std::string("(unset)")) +
                             ", where no kubernetes Service answers any more (it is " +
                             (current ? current->to_string() : std::string("gone")) + ")"};
      }
      return std::nullopt;
    }
    case reach_target::kind::service: {
      bool exists = std::any_of(c.services.begin(), c.services.end(), [&](const service& s) {
        return s.namespace_name == t.namespace_name && s.name == t.name && !s.ips.empty();
      });
      if (exists) return std::nullopt;
      return std::pair{std::optional<simulation_rule>(), "Service " + t.namespace_name + "/" + t.name + " is gone"};
    }
    case reach_target::kind::peers: {
      for (const auto* p : apps) {
        // A node keeps the blocks it took (node_blocks_from_pools); a pod numbered from a pool itself does not.
        if (find_pool(c, p->pool) == nullptr && c.addresses != pod_addresses::node_pod_cidr && !c.node_blocks_from_pools) {
          return std::pair{std::optional(simulation_rule::pool_in_use),
                           "a pod holds " + p->ip->to_string() + " from pool " + p->pool + ", which was deleted"};
        }
        for (const auto* q : apps) {
          if (c.nodes[p->node].subnet == c.nodes[q->node].subnet || !c.cross_subnet_needs_encapsulation) continue;
          for (const auto* x : {p, q}) {
            if (encapsulation_of(c, *x) != encapsulation::never) continue;
            return std::pair{std::optional(simulation_rule::pool_encapsulation),
                             "pods in different subnets no longer reach each other: " + x->ip->to_string() +
                                 (x->pool.empty() ? std::string() : " of pool " + x->pool) +
                                 " has no encapsulation, which the network between subnets needs"};
          }
        }
      }
      return std::nullopt;
    }
    case reach_target::kind::carried: {
      const auto& r = w.routes[t.route];
      auto carried = [&](const address& a) {
        return std::any_of(r.prefixes.begin(), r.prefixes.end(), [&](const prefix& p) { return p.contains(a); });
      };
      if (r.roles.has(range_role::pods)) {
        for (const auto* p : apps) {
          if (!carried(*p->ip)) {
            return std::pair{std::optional(simulation_rule::route_carries),
                             "clients across " + r.name + " no longer reach pod " + p->ip->to_string() +
                                 ": no route there carries it"};
          }
        }
      }
      if (r.roles.has(range_role::services)) {
        for (const auto& s : c.services) {
          if (s.kind == service_kind::headless) continue;
          for (const auto& ip : s.ips) {
            if (carried(ip)) continue;
            return std::pair{std::optional(simulation_rule::route_carries),
                             "clients across " + r.name + " no longer reach Service " + s.namespace_name + "/" +
                                 s.name + " at " + ip.to_string() + ": no route there carries it"};
          }
        }
      }
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

auto reach_baseline(const world& w) -> std::vector<reach_target> {
  auto out = reach_targets(w);
  std::erase_if(out, [&](const reach_target& t) { return reaches(w, w.clusters[t.cluster], t).has_value(); });
  return out;
}

auto check_state(world& w, std::size_t step, const std::vector<reach_target>& baseline, bool interrupted) -> bool {
  for (const auto& c : w.clusters) {
    if (c.kubelet_in_server &&
        std::none_of(c.nodes.begin(), c.nodes.end(), [](const node& n) { return n.control_plane && n.kubelet; })) {
      fail(w, step, simulation_check::control_plane, simulation_rule::kubelet_in_server,
           "no server of " + c.name + " runs: stopping a server's kubelet stopped its API server");
    }
    if (!c.provider_control_plane) {
      for (const auto* component : {&c.apiserver, &c.controller_manager}) {
        if (component->up) continue;
        fail(w, step, simulation_check::control_plane, component->down_rule,
             std::string(component == &c.apiserver ? "kube-apiserver" : "kube-controller-manager") +
                 " does not start: " + component->why_down);
      }
    }
    // certificate: what clients use for the API server is in its certificate.
    std::vector<std::pair<address, bool>> used;  // address, whether a pod holds it from its start
    if (auto k = kubernetes_ip(c)) used.emplace_back(*k, false);
    for (const auto& p : c.pods) {
      if (running(p) && p.api_host) used.emplace_back(*p.api_host, true);
    }
    if (!c.provider_control_plane) {
      for (const auto& [a, from_start] : used) {
        if (std::find(c.certificate.begin(), c.certificate.end(), a) != c.certificate.end()) continue;
        fail(w, step, simulation_check::certificate, from_start ? simulation_rule::pod_environment : simulation_rule::certificate_sans,
             "clients reach the API server at " + a.to_string() +
                 (from_start ? " (a pod's KUBERNETES_SERVICE_HOST)" : " (the kubernetes Service)") +
                 ", which its certificate does not name");
        break;
      }
    }
    // dns: the address kubelets hand out, and every pod's, answer (where they did at the start).
    if (!c.dns_at_start) continue;
    bool coredns = std::any_of(c.pods.begin(), c.pods.end(), [](const pod& p) { return p.workload == "coredns" && running(p); });
    auto handed_out = addresses_of(c.kubelet.get(cluster_dns_field));
    for (const auto& a : handed_out) {
      if ((dns_service_ip(c, a) && coredns) || interrupted || a == c.dead_dns) continue;
      std::pair<std::optional<simulation_rule>, std::string> why{std::nullopt, "no DNS Service has that address"};
      if (!coredns) {
        for (const auto& p : c.pods) {
          if (p.workload == "coredns") why = why_not_running(c, p);
        }
        why.second = "no CoreDNS pod runs: " + why.second;
      }
      fail(w, step, simulation_check::dns, why.first,
           "kubelets hand out DNS address " + a.to_string() + ", where nothing answers: " + why.second);
    }
    for (const auto& p : c.pods) {
      if (!running(p) || !p.nameserver || (dns_service_ip(c, *p.nameserver) && coredns) || interrupted ||
          p.nameserver == c.dead_dns) {
        continue;
      }
      fail(w, step, simulation_check::dns, simulation_rule::pod_nameserver,
           "a pod started with DNS address " + p.nameserver->to_string() + ", where no DNS Service answers any more");
    }
  }
  bool restored = true;
  for (const auto& t : baseline) {
    auto broken = reaches(w, w.clusters[t.cluster], t);
    if (!broken) continue;
    restored = false;
    if (!interrupted) fail(w, step, simulation_check::reachability, broken->first, broken->second);
  }
  return restored;
}

namespace {

// The step model's check type (runbook_step::checks' element).
using step_check_type = std::decay_t<decltype(std::declval<runbook_step>().checks.front())>;

auto observable_name(observable o) -> std::string {
  switch (o) {
    case observable::pod_addresses: return "pod addresses";
    case observable::service_cluster_ips: return "Service cluster IPs";
    case observable::ip_address_objects: return "IPAddress objects";
    case observable::service_cidr: return "ServiceCIDR";
    case observable::kubernetes_service_ip: return "the kubernetes Service's address";
    case observable::dns_service_ip: return "the DNS Service's address";
    case observable::node_pod_cidrs: return "Node podCIDRs";
    case observable::node_addresses: return "Node addresses";
    case observable::certificate_sans: return "the certificate's SANs";
    case observable::api_resources: return "the API resources";
    case observable::ip_pools: return "the pools";
    case observable::pool_expansion: return "the pod range nodes see";
    case observable::network_interfaces: return "network interfaces";
    case observable::routes: return "the routes";
  }
  return "it";
}

// What a check looks at, as addresses or ranges; `exists` for named objects.
struct observed {
  std::vector<address> addresses;
  std::vector<prefix> ranges;
  std::optional<bool> exists;  // for a named object: whether it exists (and is ready when `ready`)
  bool ready = false;
  bool modelled = true;
  std::optional<simulation_rule> because;  // why it is not ready, where a rule says
};

// The connection or declared route a step changes, where it changes one.
struct route_ref {
  std::optional<std::uint32_t> connection, route;
};

auto route_of(const runbook_step& s) -> std::optional<route_ref> {
  if (const auto* a = std::get_if<advertise_route>(&s.action)) return route_ref{a->connection, a->route};
  if (const auto* d = std::get_if<withdraw_route>(&s.action)) return route_ref{d->connection, d->route};
  return std::nullopt;
}

auto observe(const world& w, const cluster_world* c, std::uint32_t owner, const std::optional<route_ref>& on,
             const step_check_type& k) -> observed {
  observed out;
  auto services = [&](bool all) {
    for (const auto& s : c->services) {
      if (all || s.kind != service_kind::headless) out.addresses.insert(out.addresses.end(), s.ips.begin(), s.ips.end());
    }
  };
  if (c == nullptr && k.what != observable::routes) {
    out.modelled = false;
    return out;
  }
  switch (k.what) {
    case observable::pod_addresses:
      for (const auto& p : c->pods) {
        if (!running(p)) continue;
        out.addresses.push_back(*p.ip);
        // custom_networking: a node started before the switch keeps handing out its own subnet's addresses.
        if (c->custom_networking_written && !c->nodes[p.node].custom_networking) out.because = simulation_rule::custom_networking;
        // operator_reads_pools: a node block no applied pool holds came from pools the operator read earlier.
        if (!c->node_blocks_from_pools) continue;
        for (const auto& block : c->nodes[p.node].cni_cidrs) {
          bool applied = std::any_of(c->pools.begin(), c->pools.end(), [&](const pool& q) { return block.subnet_of(q.cidr); });
          if (!applied) out.because = simulation_rule::operator_reads_pools;
        }
      }
      break;
    case observable::service_cluster_ips:
    case observable::ip_address_objects: services(false); break;
    case observable::service_cidr:
      out.exists = false;
      for (const auto& s : c->service_cidrs) {
        if (s.name != k.name) continue;
        out.exists = true;
        // servicecidr_finalizer: the controller that adds the finalizer also sets Ready.
        out.ready = !s.deleting && s.finalizer;
        if (!s.finalizer) out.because = simulation_rule::servicecidr_finalizer;
        out.ranges = s.cidrs;
      }
      break;
    case observable::kubernetes_service_ip:
    case observable::dns_service_ip:
      for (const auto& s : c->services) {
        // The DNS Service the check names (a temporary kube-dns-next), else kube-dns.
        const std::string_view dns_name = k.name.empty() ? std::string_view("kube-dns") : std::string_view(k.name);
        bool wanted = k.what == observable::kubernetes_service_ip ? s.kind == service_kind::kubernetes
                                                                  : s.kind == service_kind::dns && s.name == dns_name;
        if (wanted) out.addresses.insert(out.addresses.end(), s.ips.begin(), s.ips.end());
      }
      break;
    case observable::node_pod_cidrs:
      for (const auto& n : c->nodes) {
        if (n.registered) out.ranges.insert(out.ranges.end(), n.pod_cidrs.begin(), n.pod_cidrs.end());
      }
      break;
    case observable::certificate_sans: out.addresses = c->certificate; break;
    case observable::api_resources:
      out.exists = k.name != "servicecidrs" || serves_service_cidrs(*c);
      out.ready = *out.exists;
      break;
    case observable::ip_pools:
    case observable::pool_expansion:
      if (!k.name.empty()) out.exists = false;
      for (const auto& p : c->pools) {
        if (!k.name.empty() && p.name != k.name) continue;
        out.exists = true;
        out.ready = !p.disabled;
        out.ranges.push_back(p.cidr);
      }
      // Nodes see the provider's pod range where the provider runs node IPAM.
      if (k.what == observable::pool_expansion && c->provider_control_plane) {
        auto provider = ranges_of(c->controller_manager.get(cluster_cidr_flag));
        out.ranges.insert(out.ranges.end(), provider.begin(), provider.end());
      }
      break;
    case observable::routes:
      // What the connection (or declared route) the step changes carries; every route toward the owner otherwise.
      // A declared route is keyed by its destination, and the network that declares it owns the step.
      for (const auto& r : w.routes) {
        if (on && on->route) {
          if (r.route != on->route) continue;
        } else if (r.owner != owner || (on && on->connection && r.connection != on->connection)) {
          continue;
        }
        out.ranges.insert(out.ranges.end(), r.prefixes.begin(), r.prefixes.end());
      }
      break;
    case observable::node_addresses:
    case observable::network_interfaces: out.modelled = false; break;
  }
  return out;
}

// Whether what was observed meets the check; a sentence saying what was seen when not.
auto meets(const observed& o, const step_check_type& k) -> std::optional<std::string> {
  if (!o.modelled) return std::nullopt;
  auto in = [&](const auto& x) {
    return std::any_of(k.ranges.begin(), k.ranges.end(), [&](const prefix& r) {
      if constexpr (std::is_same_v<std::decay_t<decltype(x)>, prefix>) {
        return r.overlaps(x);
      } else {
        return r.contains(x);
      }
    });
  };
  std::vector<std::string> seen;
  for (const auto& a : o.addresses) seen.push_back(a.to_string());
  for (const auto& p : o.ranges) seen.push_back(p.to_string());
  std::string shown;
  for (const auto& x : seen) shown += (shown.empty() ? "" : ", ") + x;
  if (shown.empty()) shown = "none";
  switch (k.must) {
    case expectation::none_in:
      for (const auto& a : o.addresses) {
        if (in(a)) return "shows " + a.to_string() + " in " + text_of(k.ranges);
      }
      for (const auto& p : o.ranges) {
        if (in(p)) return "shows " + p.to_string() + " in " + text_of(k.ranges);
      }
      return std::nullopt;
    case expectation::all_in:
      for (const auto& a : o.addresses) {
        if (!in(a)) return "shows " + a.to_string() + ", outside " + text_of(k.ranges);
      }
      for (const auto& p : o.ranges) {
        if (!in(p)) return "shows " + p.to_string() + ", outside " + text_of(k.ranges);
      }
      return std::nullopt;
    case expectation::includes:
      for (const auto& a : k.addresses) {
        if (std::find(o.addresses.begin(), o.addresses.end(), a) == o.addresses.end()) {
          return "lacks " + a.to_string() + " (shows " + shown + ")";
        }
      }
      for (const auto& p : k.ranges) {
        if (std::find(o.ranges.begin(), o.ranges.end(), p) == o.ranges.end()) return "lacks " + p.to_string();
      }
      return std::nullopt;
    case expectation::equals: {
      auto a = o.addresses, b = k.addresses;
      auto r = o.ranges, q = k.ranges;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      std::sort(r.begin(), r.end());
      std::sort(q.begin(), q.end());
      a.erase(std::unique(a.begin(), a.end()), a.end());
      r.erase(std::unique(r.begin(), r.end()), r.end());
      bool same = (k.addresses.empty() || a == b) && (k.ranges.empty() || r == q);
      if (same) return std::nullopt;
      return "shows " + shown;
    }
    case expectation::ready:
      if (o.exists && *o.exists && o.ready) return std::nullopt;
      return o.exists && *o.exists ? std::string("is not ready") : std::string("does not exist");
    case expectation::absent:
      if (o.exists ? !*o.exists : o.addresses.empty() && o.ranges.empty()) return std::nullopt;
      return "still exists (" + shown + ")";
  }
  return std::nullopt;
}

}  // namespace

void check_step(world& w, std::size_t step, const runbook_step& s) {
  const auto* c = w.cluster_of(s.owner);
  for (const auto& k : s.checks) {
    auto seen = observe(w, c, s.owner, route_of(s), k);
    if (auto why = meets(seen, k)) {
      fail(w, step, simulation_check::step_check, seen.because,
           "the step's check of " + observable_name(k.what) + (k.name.empty() ? std::string() : " " + k.name) +
               " would fail: it " + *why);
    }
  }
}

namespace {

// The ranges of one role cluster c uses: what its objects and flags name
// (ServiceCIDRs, the service range flag, pools, --cluster-cidr where nodes take
// podCIDRs), and each of `candidates` (its ranges before and after the plan)
// that holds an address or node range in use.
auto in_use(const cluster_world& c, range_role role, const std::vector<prefix>& candidates) -> std::vector<prefix> {
  std::vector<prefix> named;
  std::vector<address> held;
  std::vector<prefix> held_ranges;
  if (role == range_role::services) {
    for (const auto& s : c.service_cidrs) named.insert(named.end(), s.cidrs.begin(), s.cidrs.end());
    auto flag = ranges_of(c.apiserver.get(service_range_flag));
    named.insert(named.end(), flag.begin(), flag.end());
    for (const auto& s : c.services) held.insert(held.end(), s.ips.begin(), s.ips.end());
  } else if (role == range_role::pods) {
    for (const auto& p : c.pools) named.push_back(p.cidr);
    named.insert(named.end(), c.attached.begin(), c.attached.end());
    // Node podCIDRs are pod addresses only where pods take them (not with a CNI's own pools).
    if (c.addresses == pod_addresses::node_pod_cidr) {
      auto flag = ranges_of(c.controller_manager.get(cluster_cidr_flag));
      named.insert(named.end(), flag.begin(), flag.end());
      for (const auto& n : c.nodes) {
        if (n.registered) held_ranges.insert(held_ranges.end(), n.pod_cidrs.begin(), n.pod_cidrs.end());
      }
    }
    if (c.node_blocks_from_pools) {
      for (const auto& n : c.nodes) held_ranges.insert(held_ranges.end(), n.cni_cidrs.begin(), n.cni_cidrs.end());
    }
    for (const auto& p : c.pods) {
      if (p.ip) held.push_back(*p.ip);
    }
  }
  for (const auto& r : candidates) {
    bool used = std::any_of(held.begin(), held.end(), [&](const address& a) { return r.contains(a); }) ||
                std::any_of(held_ranges.begin(), held_ranges.end(), [&](const prefix& p) { return p.subnet_of(r); });
    bool covered = std::any_of(named.begin(), named.end(), [&](const prefix& p) { return r.subnet_of(p); });
    if (used && !covered) named.push_back(r);
  }
  return named;
}

}  // namespace

auto project(const world& w, const fleet& original, const fleet& planned) -> std::vector<owner_projection> {
  std::vector<owner_projection> out;
  auto candidates = [&](std::uint32_t owner) {
    std::vector<std::pair<range_role, prefix>> all;
    for (const auto* f : {&original, &planned}) {
      if (owner >= f->owners.size()) continue;
      for (auto k : f->owners[owner].ranges) {
        const auto& r = f->ranges[k];
        if (r.is_plain()) all.emplace_back(r.role, r.cidr);
      }
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
  };

  for (const auto& c : w.clusters) {
    owner_projection p{c.owner, {}, std::nullopt};
    const auto all = candidates(c.owner);
    for (auto role : {range_role::services, range_role::pods}) {
      std::vector<prefix> of_role;
      for (const auto& [r, cidr] : all) {
        if (r == role) of_role.push_back(cidr);
      }
      for (const auto& cidr : in_use(c, role, of_role)) p.ranges.emplace_back(role, cidr);
    }
    for (const auto& n : w.networks) {
      if (n.owner != c.owner) continue;
      for (const auto& cidr : n.in_use) p.ranges.emplace_back(range_role::network, cidr);
    }
    std::sort(p.ranges.begin(), p.ranges.end());
    p.ranges.erase(std::unique(p.ranges.begin(), p.ranges.end()), p.ranges.end());
    auto dns = addresses_of(c.kubelet.get(cluster_dns_field));
    if (!dns.empty()) p.dns = dns.front();
    out.push_back(std::move(p));
  }
  for (const auto& n : w.networks) {
    if (w.cluster_of_const(n.owner) != nullptr) continue;
    owner_projection p{n.owner, {}, std::nullopt};
    for (const auto& cidr : n.in_use) p.ranges.emplace_back(range_role::external, cidr);
    std::sort(p.ranges.begin(), p.ranges.end());
    p.ranges.erase(std::unique(p.ranges.begin(), p.ranges.end()), p.ranges.end());
    out.push_back(std::move(p));
  }
  return out;
}

void check_end(world& w, std::size_t steps, const fleet& original, const fleet& planned,
               const std::vector<moved_role>& moved, const std::vector<owner_projection>& now) {
  // Where owner o's ranges of a role end: the plan's if the runbook moves them, else where they were.
  auto end_fleet = [&](std::uint32_t o, range_role role) -> const fleet& {
    return std::binary_search(moved.begin(), moved.end(), moved_role{o, role}) || o >= original.owners.size() ? planned
                                                                                                               : original;
  };
  auto range_text = [&](const std::vector<std::pair<range_role, prefix>>& list) {
    std::string out;
    for (const auto& [role, cidr] : list) out += (out.empty() ? "" : ", ") + std::string(to_string(role)) + " " + cidr.to_string();
    return out.empty() ? std::string("nothing") : out;
  };
  for (const auto& p : now) {
    const auto& o = planned.owners[p.owner];
    std::vector<std::pair<range_role, prefix>> want;
    for (auto role : {range_role::network, range_role::pods, range_role::services, range_role::external}) {
      const auto& f = end_fleet(p.owner, role);
      for (auto k : f.owners[p.owner].ranges) {
        const auto& r = f.ranges[k];
        if (r.is_plain() && r.role == role && r.cidr.is_valid()) want.emplace_back(r.role, r.cidr);
      }
    }
    std::sort(want.begin(), want.end());
    want.erase(std::unique(want.begin(), want.end()), want.end());
    if (p.ranges != want) {
      fail(w, steps, simulation_check::end_state, std::nullopt,
           o.name + " ends using " + range_text(p.ranges) + ", where the plan has " + range_text(want));
    }
    const auto& dns = end_fleet(p.owner, range_role::services).owners[p.owner].dns;
    if (dns && p.dns && *dns != *p.dns) {
      fail(w, steps, simulation_check::end_state, std::nullopt,
           o.name + "'s kubelets end handing out DNS address " + p.dns->to_string() + ", where the plan has " +
               dns->to_string());
    }
  }
  for (const auto& r : w.routes) {
    std::vector<prefix> want;
    if (r.route) {
      want.push_back(planned.ranges[planned.routes[*r.route].range].cidr);
    } else {
      for (auto role : {range_role::network, range_role::pods, range_role::services, range_role::external}) {
        if (!r.roles.names(role)) continue;
        const auto& f = end_fleet(r.owner, role);
        for (auto k : f.owners[r.owner].ranges) {
          const auto& range = f.ranges[k];
          if (!range.is_plain() || range.role != role || !range.cidr.is_valid()) continue;
          if (r.connection && !planned.connections[*r.connection].carries(range.cidr)) continue;  // withdrawn there
          want.push_back(range.cidr);
        }
      }
    }
    auto have = r.prefixes;
    std::sort(want.begin(), want.end());
    std::sort(have.begin(), have.end());
    if (have == want) continue;
    for (const auto& p : have) {
      if (std::find(want.begin(), want.end(), p) != want.end()) continue;
      fail(w, steps, simulation_check::end_state, simulation_rule::route_carries,
           r.name + " still carries " + p.to_string() + " toward " + planned.owners[r.owner].name +
               ", which the plan retires: withdraw it once nothing uses it");
      break;
    }
    for (const auto& p : want) {
      if (std::find(have.begin(), have.end(), p) != have.end()) continue;
      fail(w, steps, simulation_check::end_state, simulation_rule::route_carries,
           r.name + " does not carry " + p.to_string() + " toward " + planned.owners[r.owner].name);
      break;
    }
  }
  for (const auto& c : w.clusters) {
    for (const auto& f : c.stored) {
      for (const auto& place : c.places) {
        if (place.store != f.store || place.field != f.field) continue;
        const component_state* state = c.state_of(place.target);
        const auto* runs = state != nullptr ? state->get(place.setting) : nullptr;
        if (runs == nullptr || *runs == f.value) continue;
        if (place.store == config_store::kubeadm_configuration) {
          fail(w, steps, simulation_check::end_state, simulation_rule::upgrade_reverts,
               std::string(to_string(place.target)) + " runs " + place.setting + " " + value_text(runs) +
                   ", but the stored configuration's " + place.field + " still says " + value_text(&f.value) +
                   ": the next upgrade puts it back");
        } else {
          fail(w, steps, simulation_check::end_state, std::nullopt,
               std::string(to_string(place.target)) + " still runs " + place.setting + " " + value_text(runs) +
                   " where its configuration's " + place.field + " says " + value_text(&f.value) +
                   ": it was never restarted to read it");
        }
      }
    }
    if (c.unapplied) {
      fail(w, steps, simulation_check::end_state, simulation_rule::configuration_applied,
           planned.owners[c.owner].name + "'s control-plane configuration was edited and never applied: what runs "
           "still has the old values");
    }
    // kube_proxy_cluster_cidr: where kube-proxy has a clusterCIDR, it holds every pool pods use.
    auto proxy = ranges_of(c.kube_proxy.get(proxy_cluster_cidr_field));
    for (const auto& pl : c.pools) {
      if (!c.kube_proxy_holds_pool || proxy.empty() || pl.disabled) continue;
      bool held = std::any_of(proxy.begin(), proxy.end(), [&](const prefix& r) { return pl.cidr.subnet_of(r); });
      if (held) continue;
      fail(w, steps, simulation_check::end_state, simulation_rule::kube_proxy_cluster_cidr,
           "kube-proxy of " + planned.owners[c.owner].name + " runs clusterCIDR " + text_of(proxy) +
               ", which does not hold pool " + pl.name + " (" + pl.cidr.to_string() +
               "): traffic of its pods is NATed, or lost");
      break;
    }
    for (const auto& n : c.nodes) {
      if (!n.control_plane || n.marked) continue;
      fail(w, steps, simulation_check::end_state, simulation_rule::control_plane_reregister,
           "control-plane node " + n.name + " of " + planned.owners[c.owner].name +
               " registered again without its control-plane label and NoSchedule taint: workloads may run there");
      break;
    }
  }
}

}  // namespace cidrcheck::detail::sim
