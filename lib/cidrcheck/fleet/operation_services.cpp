// The rows that move a cluster's service range: with the ServiceCIDR API
// (service-cidr-api) or in a maintenance window without it (service-window).
// Which API, gates and DNS handling a cluster takes is its profile's; every
// fact id is a row of docs/migration-facts.md, section 1.

#include "runbook_rows.hpp"

#include <string>
#include <string_view>

namespace cidrcheck::detail {

namespace {

// The default ServiceCIDR, which kube-apiserver creates from its flag (svc-default-object).
constexpr std::string_view default_service_cidr = "kubernetes";  // names-ok: an object's name, not a CNI's IPAM mode

// The service ranges of one cluster before and after the operation, in the
// fleet's order (the first is the primary family: kubernetes.default and the
// cluster DNS address live there, svc-kubernetes-single-stack).
struct service_move {
  std::uint32_t owner = 0;
  std::vector<prefix> before, after;  // one per family
  std::vector<prefix> from, to;       // the moved ones
  bool primary = false;               // the primary family moves
  address old_first, first, old_dns, dns;
  std::optional<std::uint64_t> services, load_balancers;
};

auto move_of(const row_input& in, std::uint32_t k) -> service_move {
  service_move m;
  m.owner = k;
  const auto& o = in.owner_of(k);
  m.after = ranges_of(in.planned, o, range_role::services);
  m.before = m.after;
  const plan_change* primary_change = nullptr;
  for (const auto* c : changes_of(in, k)) {
    if (c->role != range_role::services || !c->from.is_valid()) continue;
    m.from.push_back(c->from);
    m.to.push_back(c->to);
    for (auto& r : m.before) {
      if (r == c->to) r = c->from;
    }
    if (!m.after.empty() && m.after.front() == c->to) primary_change = c;
  }
  m.primary = primary_change != nullptr;
  if (m.primary) {
    m.old_first = first_address(primary_change->from);
    m.first = first_address(primary_change->to);
    m.old_dns = primary_change->dns_from ? *primary_change->dns_from : tenth_address(primary_change->from);
    m.dns = primary_change->dns_to ? *primary_change->dns_to : tenth_address(primary_change->to);
  }
  m.services = o.service_count;
  m.load_balancers = o.load_balancer_count;
  return m;
}

// A ServiceCIDR's name for its ranges: "services-10-48-0-0-12" (a DNS subdomain).
auto service_cidr_name(const std::vector<prefix>& ranges) -> std::string {
  std::string out = "services";
  for (const auto& p : ranges) {
    out += '-';
    for (char c : p.to_string()) out += (c == '.' || c == ':' || c == '/') ? '-' : c;
  }
  while (out.find("--") != std::string::npos) out.erase(out.find("--"), 1);
  if (out.back() == '-') out.pop_back();
  return out;
}

auto strings_of(const std::vector<prefix>& ranges) -> doc_list {
  doc_list out;
  for (const auto& p : ranges) out.emplace_back(p.to_string());
  return out;
}

// The kubernetes.default addresses in the API server certificate: both while
// pods may use the old one (svc-old-ip-in-use).
void certificate_step(step_writer& w, const service_move& m, const cluster_profile& p) {
  auto& s = w.add(m.owner, reissue_certificate{{m.old_first, m.first}, {}},
                  {"svc-first-ip", "svc-old-ip-in-use"});
  if (p.distribution) cite(s, p.distribution->sans);
  s.makes = {"cert-has-both-kubernetes-ips"};
  s.why = "pods keep the old kubernetes.default address until they restart, and clients that check the certificate "
          "would fail against either address missing";
  s.checks.push_back({observable::certificate_sans, expectation::includes, {}, {m.old_first, m.first}, {}});
}

// kube-apiserver and kube-controller-manager on the new range: the flag holds
// one CIDR per family, the primary first (kas-flag-two). `serves_service_cidr`:
// the cluster's minor serves the ServiceCIDR API (its kubernetes profile).
// Where the distribution sets both components' flag in one place (k3s's
// --service-cidr, kops' spec.serviceClusterIPRange), one step sets it.
void range_flag_steps(step_writer& w, const service_move& m, const cluster_profile& p, std::vector<std::string> needs,
                      bool serves_service_cidr) {
  auto& a = w.add(m.owner,
                  set_flag{component::kube_apiserver, "--service-cluster-ip-range", m.after, rollout::one_at_a_time},
                  {"svc-reconfigure-order", "svc-default-object", "kas-flag-two", "kas-flag-size"});
  a.needs = std::move(needs);
  a.makes = {"apiserver-on-new-range"};
  a.why = "every kube-apiserver must end with the same value";
  if (serves_service_cidr) a.why += "; kube-apiserver creates the default ServiceCIDR from it";
  if (p.distribution) {
    const auto* kas = p.distribution->place(component::kube_apiserver, "--service-cluster-ip-range");
    const auto* kcm = p.distribution->place(component::kube_controller_manager, "--service-cluster-ip-range");
    // With static pods each component's manifest holds its own flag, whatever the stored field.
    const bool own_manifests = p.distribution->control_plane.value == control_plane_config::static_pods;
    if (kas && kcm && !own_manifests && kas->store == kcm->store && kas->field == kcm->field) {
      cite(a, "kcm-svc-flag");
      a.makes.push_back("flags-on-new-range");
      a.why += ", and kube-controller-manager reads the same setting";
      return;
    }
  }
  auto& c = w.add(m.owner,
                  set_flag{component::kube_controller_manager, "--service-cluster-ip-range", m.after,
                           rollout::one_at_a_time},
                  {"kcm-svc-flag"});
  c.needs = {"apiserver-on-new-range"};
  c.makes = {"flags-on-new-range"};
  c.why = "node IPAM keeps pod ranges clear of the service range it is given";
}

// Pods started before the move keep KUBERNETES_SERVICE_HOST and their DNS
// address until restarted (svc-env-vars, svc-recreate-dns).
auto restart_pods_step(step_writer& w, const service_move& m) -> runbook_step& {
  auto& s = w.add(m.owner, restart_workloads{workload_selection::all_pods, {}, component::cni_agent, {}},
                  {"svc-env-vars", "svc-recreate-dns"});
  s.why = "a container keeps the KUBERNETES_SERVICE_HOST (" + m.old_first.to_string() + ") and the DNS address (" +
          m.old_dns.to_string() + ") it started with";
  s.makes = {"pods-use-new-addresses"};
  return s;
}

// The cluster DNS Service at the new address; a distribution that renders it
// itself recreates it once the old one is deleted.
auto dns_move_step(step_writer& w, const service_move& m, const cluster_profile& p) -> runbook_step& {
  auto& s = w.add(m.owner, recreate_services{service_selection::dns, m.to, m.dns, std::nullopt},
                  {"svc-clusterip-immutable", "svc-dns-tenth"});
  if (p.distribution) cite(s, p.distribution->dns_addon);
  s.makes = {"dns-service-in-new-range"};
  s.checks.push_back({observable::dns_service_ip, expectation::equals, {}, {m.dns}, {}});
  return s;
}

// The old range retired: no Service, IPAddress or certificate entry left in it.
void retire_step(step_writer& w, const service_move& m, const cluster_profile& p, std::vector<std::string> needs,
                 bool service_cidr_api) {
  runbook_step* s = nullptr;
  if (m.primary) {
    s = &w.add(m.owner, reissue_certificate{{m.first}, {m.old_first}}, {"svc-old-ip-in-use"});
    if (p.distribution) cite(*s, p.distribution->sans);
    s->why = "no pod uses the old kubernetes.default address any more";
  } else {
    s = &w.add(m.owner, verify{}, {});
  }
  s->needs = std::move(needs);
  s->makes = {"old-range-unused"};
  if (p.kubernetes) cite(*s, p.kubernetes->service_ips_field);
  s->checks.push_back({observable::service_cluster_ips, expectation::none_in, m.from, {}, {}});
  if (service_cidr_api) {
    cite(*s, "svc-finalizer");
    s->checks.push_back({observable::ip_address_objects, expectation::none_in, m.from, {}, {}});
    s->checks.push_back({observable::service_cidr, expectation::equals, m.after, {}, std::string(default_service_cidr)});
  }
}

// Only the secondary family of a dual-stack cluster moves: Services keep their
// primary address and take a new secondary one by a policy round trip, or are
// recreated when the moved family is their only one (svc-secondary-family-patch).
void secondary_services_step(step_writer& w, const service_move& m, std::vector<std::string> needs) {
  auto& s = w.add(m.owner, recreate_services{service_selection::dual_stack_secondary, m.to, std::nullopt, m.services},
                  {"svc-secondary-family-patch", "svc-kubernetes-single-stack", "svc-env-primary"});
  s.needs = std::move(needs);
  s.makes = {"services-recreated"};
  s.why = "kubernetes.default, the cluster DNS address and every Service's primary address stay where they are";
}

}  // namespace

void service_cidr_api_row(const row_input& in, runbook& out) {
  step_writer w(out);
  for (auto k : in.op.owners) {
    const auto m = move_of(in, k);
    if (m.to.empty()) continue;
    const auto p = in.profile(k);
    const auto* kube = p.kubernetes;
    if (kube == nullptr || kube->service_cidr.value == service_cidr_stage::none) {
      auto& s = w.add(k, find_out{"kubernetes.service_cidr",
                                  "which ServiceCIDR API this cluster's Kubernetes version serves: the catalog has no "
                                  "profile for it, so this runbook cannot name the API version, gates or objects"},
                      {"prof-no-source"});
      s.makes = {"old-range-unused"};
      continue;
    }
    // 1. The API served: the gate on every component that needs it (kube-controller-manager
    //    runs the ServiceCIDR controller that owns the finalizer), the group version enabled.
    std::string api_ready = "service-cidr-api-served";
    if (!kube->service_cidr_gate.value.empty()) {
      auto& s = w.add(k, set_feature_gate{kube->service_cidr_gate.value, "MultiCIDRServiceAllocator", true,
                                          rollout::one_at_a_time},
                      {"svc-finalizer-owner", "svc-no-finalizer-recreated"});
      cite(s, kube->service_cidr_gate);
      s.makes = {"gate-on"};
      s.why = "without the gate on kube-controller-manager no controller adds the ServiceCIDR finalizer, and a deleted "
              "default ServiceCIDR comes back at once from the old flag";
    }
    // Both kubernetes.default addresses in the certificate (2. below) come before a check
    // of the API that is no edit, so that where edits wait for an apply they share one
    // with the gate (config-apply-separate) instead of the check splitting them.
    const bool api_is_an_edit = kube->runtime_config.value;
    if (m.primary && !api_is_an_edit) certificate_step(w, m, p);
    {
      runbook_step* s = nullptr;
      if (api_is_an_edit) {
        s = &w.add(k, enable_api{kube->service_cidr_api.value, rollout::one_at_a_time}, {});
        cite(*s, kube->runtime_config);
        s->why = "the group version is off by default at this stage";
      } else {
        s = &w.add(k, verify{}, {});
        cite(*s, kube->service_cidr);
      }
      if (!kube->service_cidr_gate.value.empty()) s->needs = {"gate-on"};
      s->makes = {api_ready};
      s->checks.push_back({observable::service_cidr, expectation::ready, m.before, {}, std::string(default_service_cidr)});
    }
    // 2. Both kubernetes.default addresses in the certificate.
    if (m.primary && api_is_an_edit) certificate_step(w, m, p);
    // 3. The new range as a second ServiceCIDR: new Services may take addresses in it at once.
    const std::string temporary = service_cidr_name(m.to);
    {
      auto o = object(kube->service_cidr_api.value, "ServiceCIDR", "", temporary,
                    {{"spec", doc_node{doc_map{{"cidrs", doc_node{strings_of(m.after)}}}}}});
      auto& s = w.add(k, apply_object{std::move(o), object_tool::kubectl, apply_object::mode::create},
                      {"svc-extend", "svc-fields", "svc-reconfigure-order"});
      cite(s, kube->service_cidr_api);
      s.needs = {api_ready};
      s.makes = {"new-service-cidr-ready"};
      s.checks.push_back({observable::service_cidr, expectation::ready, m.after, {}, temporary});
    }
    // The DNS Service: a second one at the new address while pods use either,
    // unless the distribution renders the DNS Service itself (it would fight
    // it); where the catalog does not know who renders it, the operator finds out.
    const bool renders_dns = p.distribution && p.distribution->dns_addon.known &&
                             p.distribution->dns_addon.value == dns_addon_owner::distribution;
    const bool own_dns = !renders_dns;
    if (m.primary && own_dns && !(p.distribution && p.distribution->dns_addon.known)) {
      auto& s = w.add(k, find_out{"distribution.dns_addon",
                                  "whether this distribution writes the kube-dns Service itself: if it does, it "
                                  "re-applies kube-dns at the address its configuration names and fights the "
                                  "temporary kube-dns-next of the next step; then delete kube-dns instead just before "
                                  "the setting that names the new DNS address changes"},
                      {"dns-addon-rerender-conflict"});
      if (p.distribution) cite(s, p.distribution->dns_addon);
      s.needs = {"new-service-cidr-ready"};
    }
    if (m.primary && own_dns) {
      auto o = object("v1", "Service", "kube-system", "kube-dns-next",
                    {{"spec", doc_node{doc_map{
                                  {"clusterIP", doc_node{m.dns.to_string()}},
                                  {"selector", doc_node{doc_map{{"k8s-app", doc_node{std::string("kube-dns")}}}}},
                                  {"ports", doc_node{doc_list{
                                                doc_node{doc_map{{"name", doc_node{std::string("dns")}},
                                                                 {"port", doc_node{std::int64_t{53}}},
                                                                 {"protocol", doc_node{std::string("UDP")}}}},
                                                doc_node{doc_map{{"name", doc_node{std::string("dns-tcp")}},
                                                                 {"port", doc_node{std::int64_t{53}}},
                                                                 {"protocol", doc_node{std::string("TCP")}}}}}}}}}}});
      auto& s = w.add(k, apply_object{std::move(o), object_tool::kubectl, apply_object::mode::create},
                      {"svc-recreate-dns", "svc-clusterip-immutable", "svc-dns-tenth"});
      if (p.distribution) cite(s, p.distribution->dns_addon);
      s.needs = {"new-service-cidr-ready"};
      s.makes = {"new-dns-serving"};
      s.why = "pods with either DNS address in /etc/resolv.conf resolve until all are restarted; copy spec.ports and "
              "spec.selector from kube-dns if they differ";
      s.checks.push_back({observable::dns_service_ip, expectation::includes, {}, {m.dns}, "kube-dns-next"});
    }
    // 4. The default ServiceCIDR marked for deletion: it hands out no new address.
    {
      auto& s = w.add(k, deletion(kube->service_cidr_api.value, "ServiceCIDR", "", std::string(default_service_cidr),
                                       object_tool::kubectl, false),
                      {"svc-stop-allocating", "svc-finalizer", "svc-finalizer-owner", "svc-reconfigure-order",
                       "svc-reconfigure-version"});
      s.needs = {"new-service-cidr-ready"};
      s.makes = {"old-range-not-allocating"};
      s.why = "it stays terminating while Services use the old range, and every Service created from now on gets an "
              "address in the new one";
      s.checks.push_back({observable::service_cidr, expectation::ready, m.after, {}, temporary});
    }
    // 5. Kubelets point new pods at the new DNS address (served by kube-dns-next).
    if (m.primary && own_dns) {
      auto& s = w.add(k, set_flag{component::kubelet, "clusterDNS", std::vector<address>{m.dns}, rollout::one_at_a_time},
                      {"svc-recreate-dns", "svc-dns-tenth"});
      s.needs = {"new-dns-serving"};
      s.makes = {"kubelets-use-new-dns"};
    }
    // 6. The Services recreated into the new range, LoadBalancers too.
    if (m.primary) {
      auto& s = w.add(k, recreate_services{service_selection::cluster_ip, m.to, std::nullopt, m.services},
                      {"svc-clusterip-immutable", "svc-headless", "svc-reconfigure-order"});
      s.needs = {"old-range-not-allocating"};
      s.makes = {"services-recreated"};
      s.why = "a clusterIP cannot change; the ones other workloads call first. kube-dns and kubernetes.default come "
              "later";
      auto& lb = w.add(k, recreate_services{service_selection::load_balancer, m.to, std::nullopt, m.load_balancers},
                       {"svc-lb-recreate", "svc-out-of-range-event", "svc-finalizer"});
      lb.needs = {"old-range-not-allocating"};
      lb.makes = {"lb-services-recreated"};
      lb.why = "a LoadBalancer left in the old range keeps the old ServiceCIDR from being deleted";
    } else {
      secondary_services_step(w, m, {"old-range-not-allocating"});
      w.steps().back().makes.push_back("lb-services-recreated");
    }
    // 7. The flags; kubelets follow them where the distribution derives clusterDNS itself.
    std::vector<std::string> needs = {"services-recreated", "lb-services-recreated"};
    if (m.primary) needs.push_back("cert-has-both-kubernetes-ips");
    range_flag_steps(w, m, p, needs, true);
    // 8. kubernetes.default recreated by kube-apiserver at the new range's first
    //    address; where the distribution renders kube-dns, the setting that names
    //    the new DNS address follows at once (9), inside the moment the move of
    //    kubernetes.default already cuts running pods off, and they restart next.
    if (m.primary) {
      auto& s = w.add(k, recreate_services{service_selection::kubernetes_default, m.to, m.first, std::nullopt},
                      {"svc-kubernetes-svc-sticky", "svc-first-ip"});
      s.needs = {"flags-on-new-range"};
      s.makes = {"kubernetes-service-in-new-range"};
      s.checks.push_back({observable::kubernetes_service_ip, expectation::equals, {}, {m.first}, {}});
      if (renders_dns) {
        auto& kl = w.add(k, set_flag{component::kubelet, "clusterDNS", std::vector<address>{m.dns},
                                     rollout::all_together},
                         {"svc-recreate-dns", "svc-dns-tenth", "dns-addon-rerender-conflict"});
        cite(kl, p.distribution->dns_addon);
        kl.needs = {"kubernetes-service-in-new-range"};
        kl.makes = {"kubelets-use-new-dns", "dns-service-in-new-range"};
        kl.why = "delete the kube-dns Service just before applying it: the distribution re-applies kube-dns at this "
                 "address as it applies the setting, which fails while kube-dns holds the old one (a cluster IP "
                 "cannot change in place), and creates it again at the new one. Running pods keep the old DNS "
                 "address, as they keep the old kubernetes.default, until the restart of the next step";
        kl.checks.push_back({observable::dns_service_ip, expectation::equals, {}, {m.dns}, {}});
      }
      // 10. Every pod restarted, 11. kube-dns moved for good.
      auto& r = restart_pods_step(w, m);
      r.needs = {"kubernetes-service-in-new-range", "kubelets-use-new-dns", "services-recreated"};
      if (renders_dns) r.needs.push_back("dns-service-in-new-range");
      if (own_dns) {
        auto& d = dns_move_step(w, m, p);
        d.needs = {"pods-use-new-addresses"};
        d.why = "no pod uses the old DNS address any more; new lookups pause for the seconds between deletion and "
                "creation";
      }
    } else {
      auto& r = w.add(k, restart_workloads{workload_selection::all_pods, {}, component::cni_agent, {}},
                      {"svc-env-primary"});
      r.needs = {"services-recreated", "flags-on-new-range"};
      r.makes = {"pods-use-new-addresses", "dns-service-in-new-range"};
      r.why = "only pods that read a recreated Service's variables need it; the primary addresses did not move";
    }
    // 12. The temporary ServiceCIDR goes once the default one holds the new range again.
    {
      auto& s = w.add(k, deletion(kube->service_cidr_api.value, "ServiceCIDR", "", temporary,
                                       object_tool::kubectl, true),
                      {"svc-reconfigure-version", "svc-default-object"});
      s.needs = {"dns-service-in-new-range", "pods-use-new-addresses"};
      s.makes = {"temporary-service-cidr-gone"};
      s.why = "kube-apiserver recreates the default ServiceCIDR from its new flag once the old one is gone, and "
              "upstream's migration ends by deleting the temporary one";
      s.checks.push_back({observable::service_cidr, expectation::equals, m.after, {}, std::string(default_service_cidr)});
      s.checks.push_back({observable::service_cidr, expectation::absent, {}, {}, temporary});
    }
    // 13. Dual write off, where the gate exists and is off by default.
    if (kube->dual_write_gate.value == "off") {
      auto& s = w.add(k, set_feature_gate{{component::kube_apiserver}, "DisableAllocatorDualWrite", true,
                                          rollout::one_at_a_time},
                      {"svc-dual-write", "kas-flag-size"});
      cite(s, kube->dual_write_gate);
      s.needs = {"temporary-service-cidr-gone"};
      s.makes = {"dual-write-off"};
      s.why = "optional: kube-apiserver stops also writing the old bitmap allocator, needed only until the migration "
              "is complete";
    }
    retire_step(w, m, p, {"temporary-service-cidr-gone"}, true);
  }
}

void service_window_row(const row_input& in, runbook& out) {
  step_writer w(out);
  for (auto k : in.op.owners) {
    const auto m = move_of(in, k);
    if (m.to.empty()) continue;
    const auto p = in.profile(k);
    {
      auto& s = w.add(k, take_backup{}, {"svc-noapi-window", "svc-noapi-zendesk", "kadm-flant-order"});
      if (p.kubernetes) cite(s, p.kubernetes->service_cidr);
      s.makes = {"backup-taken"};
      s.why = "without the ServiceCIDR API kube-apiserver serves one service range per family, so every Service " +
              std::string(m.primary ? "is recreated" : "with an address in the moved range gets a new one") +
              " in one maintenance window (Zendesk avoided the window only with a forked kube-proxy and a patched "
              "kube-apiserver)";
    }
    if (m.primary) {
      certificate_step(w, m, p);
      w.steps().back().needs = {"backup-taken"};
    }
    std::vector<std::string> needs = {"backup-taken"};
    if (m.primary) needs.push_back("cert-has-both-kubernetes-ips");
    // Without the API turned on (off by default before GA) no default ServiceCIDR exists.
    range_flag_steps(w, m, p, needs, p.kubernetes && p.kubernetes->service_cidr.value == service_cidr_stage::ga);
    cite(w.steps().back(), "svc-rangeallocation");
    w.steps().back().why += "; if Services then fail with \"no free Cluster IPs\", stop kube-controller-manager and "
                            "delete the old range's RangeAllocation from etcd, as Zendesk did";
    if (!m.primary) {
      secondary_services_step(w, m, {"flags-on-new-range"});
      auto& r = w.add(k, restart_workloads{workload_selection::all_pods, {}, component::cni_agent, {}},
                      {"svc-env-primary"});
      r.needs = {"services-recreated"};
      r.makes = {"pods-use-new-addresses"};
      retire_step(w, m, p, {"pods-use-new-addresses"}, false);
      continue;
    }
    auto& d = dns_move_step(w, m, p);
    d.needs = {"flags-on-new-range"};
    d.why = "first, so that resolution works again as early as possible";
    auto& kd = w.add(k, recreate_services{service_selection::kubernetes_default, m.to, m.first, std::nullopt},
                     {"svc-kubernetes-svc-sticky", "svc-first-ip"});
    kd.needs = {"flags-on-new-range"};
    kd.makes = {"kubernetes-service-in-new-range"};
    kd.checks.push_back({observable::kubernetes_service_ip, expectation::equals, {}, {m.first}, {}});
    // The kubelets follow before the other Services move, so that the DNS
    // address they hand out stays in the service range once the old one holds none.
    auto& kl = w.add(k, set_flag{component::kubelet, "clusterDNS", std::vector<address>{m.dns}, rollout::one_at_a_time},
                     {"svc-recreate-dns"});
    kl.needs = {"dns-service-in-new-range", "kubernetes-service-in-new-range"};
    kl.makes = {"kubelets-use-new-dns"};
    auto& s = w.add(k, recreate_services{service_selection::cluster_ip, m.to, std::nullopt, m.services},
                    {"svc-clusterip-immutable", "svc-headless", "svc-noapi-window"});
    s.needs = {"flags-on-new-range"};
    s.makes = {"services-recreated"};
    auto& lb = w.add(k, recreate_services{service_selection::load_balancer, m.to, std::nullopt, m.load_balancers},
                     {"svc-lb-recreate"});
    lb.needs = {"flags-on-new-range"};
    lb.makes = {"lb-services-recreated"};
    auto& r = restart_pods_step(w, m);
    cite(r, "kadm-flant-order");
    r.needs = {"kubelets-use-new-dns", "kubernetes-service-in-new-range", "services-recreated", "lb-services-recreated"};
    r.why += "; the window ends";
    retire_step(w, m, p, {"pods-use-new-addresses"}, false);
  }
}

}  // namespace cidrcheck::detail
