// The migration simulator (fleet/simulator.hpp): the rule table, then runbooks
// written here step by step, once in an order that works and once with each
// wrong order or missing step issue 24 lists, which the simulator must refuse
// naming the step and the rule.

#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/fleet/simulator.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {
namespace {

TEST(SimulationRules, EveryRuleHasAUniqueNameAndAFactThatExists) {
  std::set<std::string_view> names;
  for (std::size_t k = 0; k < simulation_rule_table().size(); ++k) {
    const auto& r = simulation_rule_table()[k];
    EXPECT_EQ(static_cast<std::size_t>(r.value), k) << r.name;
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_NE(find_migration_fact(r.fact), nullptr) << r.name << " cites " << r.fact;
    EXPECT_FALSE(r.summary.empty()) << r.name;
  }
}

TEST(SimulationRules, DocsListEveryRuleWithItsFactAndSummary) {
  std::ifstream in(std::string(CIDRCHECK_DOCS) + "/simulator.md");
  ASSERT_TRUE(in) << "docs/simulator.md";
  std::vector<std::string> rows;
  bool table = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "| rule | fact | what upstream does |") table = true;
    if (table && line.starts_with("| ") && !line.starts_with("| rule ")) rows.push_back(line);
    if (table && line.empty()) table = false;
  }
  std::vector<std::string> want;
  for (const auto& r : simulation_rule_table()) {
    want.push_back("| " + std::string(r.name) + " | [" + std::string(r.fact) + "](migration-facts.md) | " +
                   std::string(r.summary) + " |");
  }
  EXPECT_EQ(rows, want);
}

TEST(SimulationRules, ChecksHaveTheirNames) {
  EXPECT_EQ(to_string(simulation_check::control_plane), "control-plane");
  EXPECT_EQ(to_string(simulation_check::end_state), "end-state");
}

TEST(SimulationResults, AFailureNamesStepCheckRuleAndFact) {
  simulation_failure f{4, simulation_check::control_plane, simulation_rule::kcm_refuses, "kube-controller-manager does not start"};
  EXPECT_EQ(to_string(f, 9), "step 5 [control-plane] kcm-refuses (fact kcm-refuses): kube-controller-manager does not start");
  f.step = 9;
  f.rule.reset();
  EXPECT_EQ(to_string(f, 9), "end [control-plane] -: kube-controller-manager does not start");
}

TEST(SimulationResults, SummarySaysPassedOrWhereItFirstFailed) {
  simulation_result r;
  r.steps = 4;
  r.skipped = {1, 3};
  EXPECT_EQ(summary(r), "passed: 2 of 4 steps simulated; not simulated (no machine meaning): step 2, 4");
  r.failures.push_back({2, simulation_check::dns, std::nullopt, "x"});
  r.failures.push_back({4, simulation_check::end_state, std::nullopt, "y"});
  EXPECT_EQ(summary(r), "FAILED: 2 failures, the first at step 3");
}

// A fleet planned, and what a simulation of its first operation compares against.
struct planned {
  fleet original, after;
  plan_result result;
  simulation_context context;

  explicit planned(std::string_view yaml) {
    fleet_loader loader(builtin_catalog());
    loader.add_text(yaml, "t.yaml");
    auto loaded = loader.finish();
    EXPECT_TRUE(loaded.ok());
    original = std::move(loaded.value);
    result = plan(original, builtin_catalog());
    after = apply_plan(original, result);
    context.original = &original;
    context.planned = &after;
    context.catalog = &builtin_catalog();
  }
  planned(const planned&) = delete;

  // The change of owner `name` in `role`.
  auto change(std::string_view name, range_role role) const -> const plan_change& {
    for (const auto& c : result.changes) {
      if (original.owners[c.owner].name == name && c.role == role) return c;
    }
    throw std::logic_error("no change");
  }
  auto owner(std::string_view name) const -> std::uint32_t { return *original.find_owner(name); }
};

auto step(std::uint32_t owner, step_action action, std::vector<step_check> checks = {}) -> runbook_step {
  runbook_step s;
  s.owner = owner;
  s.action = std::move(action);
  s.checks = std::move(checks);
  return s;
}

auto first_address(const prefix& p) -> address { return p.network().next(); }
auto tenth_address(const prefix& p) -> address { return address::from_bits(p.version(), p.network().bits() + 10); }

// Steps and checks built field by field (the warnings forbid aggregates with fields left out).
auto recreate(service_selection which, std::vector<prefix> into, std::optional<address> ip = std::nullopt)
    -> recreate_services {
  recreate_services r;
  r.which = which;
  r.into = std::move(into);
  r.cluster_ip = ip;
  return r;
}

auto remove(std::string api, std::string kind, std::string ns, std::string name, bool wait = true) -> delete_object {
  delete_object d;
  d.api_version = std::move(api);
  d.kind = std::move(kind);
  d.namespace_name = std::move(ns);
  d.name = std::move(name);
  d.wait = wait;
  return d;
}

auto restart(workload_selection which, component target = component::cni_agent) -> restart_workloads {
  restart_workloads r;
  r.which = which;
  r.target = target;
  return r;
}

auto expect(observable what, expectation must, std::vector<prefix> ranges, std::vector<address> addresses = {},
            std::string name = {}) -> step_check {
  step_check k;
  k.what = what;
  k.must = must;
  k.ranges = std::move(ranges);
  k.addresses = std::move(addresses);
  k.name = std::move(name);
  return k;
}

auto service_cidr_object(std::string api, std::string name, const prefix& cidr) -> kube_object {
  kube_object o;
  o.api_version = std::move(api);
  o.kind = "ServiceCIDR";
  o.name = std::move(name);
  o.body = {{"spec", doc_node{doc_map{{"cidrs", doc_node{doc_list{doc_node{cidr.to_string()}}}}}}}};
  return o;
}

auto dns_service(std::string name, const address& ip) -> kube_object {
  kube_object o;
  o.api_version = "v1";
  o.kind = "Service";
  o.namespace_name = "kube-system";
  o.name = std::move(name);
  o.body = {{"spec", doc_node{doc_map{{"clusterIP", doc_node{ip.to_string()}},
                                      {"selector", doc_node{doc_map{{"k8s-app", doc_node{std::string("kube-dns")}}}}}}}}};
  return o;
}

// Two kubeadm clusters of one minor sharing a service range that a VPN carries:
// the plan moves one of them with the ServiceCIDR API.
auto services_fleet(std::string_view minor) -> std::string {
  return std::string("clusters:\n"
                     "  - {name: a, distribution: kubeadm, kubernetes: \"") + std::string(minor) +
         "\", network: 10.1.0.0/16, pods: 10.2.0.0/16, services: 10.96.0.0/16}\n"
         "  - {name: b, distribution: kubeadm, kubernetes: \"" + std::string(minor) +
         "\", network: 10.11.0.0/16, pods: 10.12.0.0/16, services: 10.96.0.0/16}\n"
         "connections:\n"
         "  - {between: [a, b], via: vpn, routes: [services]}\n";
}

// The service-cidr-api runbook in upstream's order (svc-reconfigure-order), for
// a kubeadm cluster whose ServiceCIDR API is `api` (gate and group version off
// by default unless GA), with the route on the VPN following the range.
auto service_move(const planned& p, std::string_view name, std::string api, bool ga) -> runbook {
  const auto& c = p.change(name, range_role::services);
  const auto o = c.owner;
  const prefix from = c.from, to = c.to;
  const address old_dns = tenth_address(from), dns = tenth_address(to);
  runbook book;
  book.kind = "service-cidr-api";
  book.owners = {o};
  if (!ga) {
    book.steps.push_back(step(o, set_feature_gate{{component::kube_apiserver, component::kube_controller_manager},
                                                  "MultiCIDRServiceAllocator", true}));
    book.steps.push_back(step(o, enable_api{api}));
  }
  book.steps.push_back(step(o, reissue_certificate{{first_address(from), first_address(to)}, {}},
                            {expect(observable::certificate_sans, expectation::includes, {},
                                    {first_address(from), first_address(to)})}));
  book.steps.push_back(step(o, advertise_route{to, from, 0u, std::nullopt}));
  book.steps.push_back(step(o, apply_object{service_cidr_object(api, "services-new", to)},
                            {expect(observable::service_cidr, expectation::ready, {}, {}, "services-new")}));
  book.steps.push_back(step(o, apply_object{dns_service("kube-dns-next", dns)}));
  book.steps.push_back(step(o, remove(api, "ServiceCIDR", "", "kubernetes", false)));
  book.steps.push_back(step(o, edit_field{config_store::kubelet_configuration, "clusterDNS", std::vector<address>{dns}}));
  book.steps.push_back(step(o, restart(workload_selection::component, component::kubelet)));
  book.steps.push_back(step(o, recreate(service_selection::cluster_ip, {to})));
  book.steps.push_back(step(o, recreate(service_selection::load_balancer, {to})));
  book.steps.push_back(step(o, edit_field{config_store::kubeadm_configuration, "networking.serviceSubnet",
                                          std::vector<prefix>{to}}));
  book.steps.push_back(step(o, set_flag{component::kube_apiserver, "--service-cluster-ip-range", std::vector<prefix>{to}}));
  book.steps.push_back(step(o, set_flag{component::kube_controller_manager, "--service-cluster-ip-range",
                                        std::vector<prefix>{to}}));
  // kube-apiserver recreates kubernetes.default at the new address: pods that read the old
  // one from KUBERNETES_SERVICE_HOST lose the API server until the next step restarts them.
  book.steps.push_back(step(o, recreate(service_selection::kubernetes_default, {to}),
                            {expect(observable::kubernetes_service_ip, expectation::equals, {}, {first_address(to)})}));
  book.steps.push_back(step(o, restart(workload_selection::all_pods)));
  book.steps.push_back(step(o, recreate(service_selection::dns, {to}, dns)));
  book.steps.push_back(step(o, reissue_certificate{{}, {first_address(from)}}));
  book.steps.push_back(step(o, withdraw_route{from, 0u, std::nullopt},
                            {expect(observable::service_cluster_ips, expectation::none_in, {from})}));
  (void)old_dns;
  return book;
}

auto index_of(const runbook& book, auto&& matches) -> std::size_t {
  for (std::size_t k = 0; k < book.steps.size(); ++k) {
    if (matches(book.steps[k].action)) return k;
  }
  throw std::logic_error("no such step");
}

template <class Kind>
auto is(auto&& also) {
  return [also](const step_action& a) {
    const auto* s = std::get_if<Kind>(&a);
    return s != nullptr && also(*s);
  };
}

auto describe(const simulation_result& r) -> std::string {
  std::string out;
  for (const auto& f : r.failures) out += to_string(f, r.steps) + "\n";
  return out;
}

TEST(SimulateServiceCidrApi, UpstreamOrderPassesOnEveryStage) {
  for (auto [minor, api, ga] : {std::tuple{"1.29", "networking.k8s.io/v1alpha1", false},
                                std::tuple{"1.31", "networking.k8s.io/v1beta1", false},
                                std::tuple{"1.33", "networking.k8s.io/v1", true}}) {
    SCOPED_TRACE(minor);
    planned p(services_fleet(minor));
    auto name = p.original.owners[p.result.operations.front().owners.front()].name;
    auto r = simulate_runbook(p.context, service_move(p, name, api, ga));
    EXPECT_TRUE(r.passed()) << describe(r);
  }
}

}  // namespace
}  // namespace cidrcheck

namespace cidrcheck {
namespace {

// The runbook of the one service move of services_fleet(minor), in upstream's order.
struct service_case {
  planned p;
  runbook book;
  service_case(std::string_view minor, std::string api, bool ga)
      : p(services_fleet(minor)),
        book(service_move(p, p.original.owners[p.result.operations.front().owners.front()].name, std::move(api), ga)) {}

  auto run() const -> simulation_result { return simulate_runbook(p.context, book); }
  template <class Kind>
  auto at(auto&& also) const -> std::size_t {
    return index_of(book, is<Kind>(also));
  }
};

auto any = [](const auto&) { return true; };

// Expects the first failure of r to be at step `at`, of check `check`, because of `rule`.
void expect_refused(const simulation_result& r, std::size_t at, simulation_check check,
                    std::optional<simulation_rule> rule) {
  ASSERT_FALSE(r.passed());
  const auto& f = r.failures.front();
  EXPECT_EQ(f.step, at) << describe(r);
  EXPECT_EQ(f.check, check) << describe(r);
  EXPECT_EQ(f.rule, rule) << describe(r);
}

TEST(SimulateServiceCidrApi, GateOnlyOnKubeApiserverBefore133LeavesTheOldRangeAllocating) {
  // KEP-1880: kube-controller-manager's service-cidr-controller owns the finalizer; without it the
  // deleted default ServiceCIDR is recreated from the old flag, and Services land in the old range again.
  service_case c("1.31", "networking.k8s.io/v1beta1", false);
  std::get<set_feature_gate>(c.book.steps[0].action).targets = {component::kube_apiserver};
  auto r = c.run();
  // The new ServiceCIDR never becomes Ready: the controller that would say so does not run.
  auto apply_at = c.at<apply_object>([](const apply_object& s) { return s.object.kind == "ServiceCIDR"; });
  expect_refused(r, apply_at, simulation_check::step_check, simulation_rule::servicecidr_finalizer);
  auto recreate_at = c.at<recreate_services>([](const recreate_services& s) { return s.which == service_selection::cluster_ip; });
  ASSERT_GE(r.failures.size(), 2u);
  EXPECT_EQ(r.failures[1].step, recreate_at) << describe(r);
  EXPECT_EQ(r.failures[1].rule, simulation_rule::servicecidr_recreated) << describe(r);
}

TEST(SimulateServiceCidrApi, GateOnlyOnKubeApiserverIsEnoughFrom133) {
  // From 1.33 the gate is on by default on kube-controller-manager too: the same runbook passes.
  service_case c("1.33", "networking.k8s.io/v1", true);
  set_feature_gate gate;
  gate.targets = {component::kube_apiserver};
  gate.gate = "MultiCIDRServiceAllocator";
  c.book.steps.insert(c.book.steps.begin(), step(c.book.owners.front(), gate));
  EXPECT_TRUE(c.run().passed()) << describe(c.run());
}

TEST(SimulateServiceCidrApi, NoServiceCidrKindBefore129) {
  service_case c("1.28", "networking.k8s.io/v1alpha1", false);
  auto apply_at = c.at<apply_object>([](const apply_object& s) { return s.object.kind == "ServiceCIDR"; });
  expect_refused(c.run(), apply_at, simulation_check::step_refused, simulation_rule::servicecidr_kind);
}

TEST(SimulateServiceCidrApi, ServiceCidrBeforeTheApiIsServed) {
  service_case c("1.31", "networking.k8s.io/v1beta1", false);
  c.book.steps.erase(c.book.steps.begin() + static_cast<std::ptrdiff_t>(c.at<enable_api>(any)));
  auto apply_at = c.at<apply_object>([](const apply_object& s) { return s.object.kind == "ServiceCIDR"; });
  expect_refused(c.run(), apply_at, simulation_check::step_refused, simulation_rule::servicecidr_served);
}

TEST(SimulateServiceCidrApi, DefaultServiceCidrNeverDeletedKeepsAllocatingTheOldRange) {
  service_case c("1.31", "networking.k8s.io/v1beta1", false);
  c.book.steps.erase(c.book.steps.begin() + static_cast<std::ptrdiff_t>(c.at<delete_object>(any)));
  auto recreate_at = c.at<recreate_services>([](const recreate_services& s) { return s.which == service_selection::cluster_ip; });
  expect_refused(c.run(), recreate_at, simulation_check::step_check, simulation_rule::clusterip_allocation);
}

TEST(SimulateServiceCidrApi, NoRouteAdvertisedBeforeTheNewRangeIsUsed) {
  // The VPN carries the service range: the first address handed out in the new range
  // (kube-dns-next's) is out of its clients' reach.
  service_case c("1.31", "networking.k8s.io/v1beta1", false);
  c.book.steps.erase(c.book.steps.begin() + static_cast<std::ptrdiff_t>(c.at<advertise_route>(any)));
  auto dns_at = c.at<apply_object>([](const apply_object& s) { return s.object.kind == "Service"; });
  expect_refused(c.run(), dns_at, simulation_check::reachability, simulation_rule::route_carries);
}

TEST(SimulateServiceCidrApi, NoRouteWithdrawnAfterTheRetireCheck) {
  service_case c("1.31", "networking.k8s.io/v1beta1", false);
  auto withdraw_at = c.at<withdraw_route>(any);
  c.book.steps[withdraw_at].action = verify{};
  expect_refused(c.run(), c.book.steps.size(), simulation_check::end_state, simulation_rule::route_carries);
}

TEST(SimulateServiceCidrApi, RouteWithdrawnBeforeServicesLeaveTheOldRange) {
  service_case c("1.31", "networking.k8s.io/v1beta1", false);
  auto withdraw = c.book.steps[c.at<withdraw_route>(any)];
  withdraw.checks.clear();
  c.book.steps.erase(c.book.steps.begin() + static_cast<std::ptrdiff_t>(c.at<withdraw_route>(any)));
  auto advertise_at = c.at<advertise_route>(any);
  c.book.steps.insert(c.book.steps.begin() + static_cast<std::ptrdiff_t>(advertise_at) + 1, withdraw);
  expect_refused(c.run(), advertise_at + 1, simulation_check::reachability, simulation_rule::route_carries);
}

TEST(SimulateServiceCidrApi, CertificateReissuedAfterTheSubnetChangeLosesTheOldAddress) {
  // kadm-san-first: kubeadm's certificate names the first address of the configured serviceSubnet
  // and certSANs only; reissued once the configuration names the new range, without the old
  // address among the extra SANs, it lacks the address pods still connect to.
  service_case c("1.31", "networking.k8s.io/v1beta1", false);
  auto reissue_at = c.at<reissue_certificate>(any);
  auto reissue = c.book.steps[reissue_at];
  std::get<reissue_certificate>(reissue.action).sans = {std::get<reissue_certificate>(reissue.action).sans.back()};
  reissue.checks.clear();
  c.book.steps.erase(c.book.steps.begin() + static_cast<std::ptrdiff_t>(reissue_at));
  auto flag_at = c.at<set_flag>([](const set_flag& s) { return s.target == component::kube_apiserver; });
  c.book.steps.insert(c.book.steps.begin() + static_cast<std::ptrdiff_t>(flag_at) + 1, reissue);
  // At once: the kubernetes Service itself still has the old address.
  auto r = c.run();
  expect_refused(r, flag_at + 1, simulation_check::certificate, simulation_rule::certificate_sans);
}

TEST(SimulateServiceCidrApi, CertificateReissuedBeforeTheSubnetChangeKeepsTheOldAddress) {
  // The same reissue before the configuration changes: the old address is still the configured one.
  service_case c("1.31", "networking.k8s.io/v1beta1", false);
  auto reissue_at = c.at<reissue_certificate>(any);
  auto& reissue = std::get<reissue_certificate>(c.book.steps[reissue_at].action);
  reissue.sans = {reissue.sans.back()};
  auto r = c.run();
  EXPECT_TRUE(r.passed()) << describe(r);
}

TEST(SimulateServiceCidrApi, PodsNeverRestartedKeepTheOldAddresses) {
  service_case c("1.31", "networking.k8s.io/v1beta1", false);
  auto restart_at = c.at<restart_workloads>([](const restart_workloads& s) { return s.which == workload_selection::all_pods; });
  c.book.steps.erase(c.book.steps.begin() + static_cast<std::ptrdiff_t>(restart_at));
  // The old kubernetes.default address leaves the certificate while pods still connect to it.
  auto r = c.run();
  auto drop_at = c.book.steps.size() - 2;
  ASSERT_TRUE(std::holds_alternative<reissue_certificate>(c.book.steps[drop_at].action));
  expect_refused(r, drop_at, simulation_check::certificate, simulation_rule::pod_environment);
}

TEST(SimulateServiceCidrApi, StoredConfigurationPutBackOnTheOldRange) {
  // kadm-upgrade-reverts: the next kubeadm upgrade renders the static pods from kubeadm-config.
  // (A set_flag writes it where the profile places it; here a last edit puts the old range back.)
  service_case c("1.31", "networking.k8s.io/v1beta1", false);
  auto edit_at = c.at<edit_field>([](const edit_field& s) { return s.store == config_store::kubeadm_configuration; });
  auto back = c.book.steps[edit_at];
  std::get<edit_field>(back.action).value = std::vector<prefix>{std::get<withdraw_route>(c.book.steps.back().action).cidr};
  c.book.steps.push_back(back);
  expect_refused(c.run(), c.book.steps.size(), simulation_check::end_state, simulation_rule::upgrade_reverts);
}

TEST(SimulateServiceCidrApi, AnInterruptionNeverEndedFailsAtTheEnd) {
  service_case c("1.31", "networking.k8s.io/v1beta1", false);
  auto recreate_at = c.at<recreate_services>([](const recreate_services& s) { return s.which == service_selection::cluster_ip; });
  c.book.steps[recreate_at].action = remove("v1", "Service", "default", "backend");
  auto r = c.run();
  ASSERT_FALSE(r.passed());
  EXPECT_EQ(r.failures.front().step, c.book.steps.size()) << describe(r);
  EXPECT_EQ(r.failures.front().check, simulation_check::reachability) << describe(r);
}

}  // namespace
}  // namespace cidrcheck

namespace cidrcheck {
namespace {

auto ippool(std::string name, const prefix& cidr, std::string ipip, bool nat, bool disabled) -> kube_object {
  kube_object o;
  o.api_version = "projectcalico.org/v3";
  o.kind = "IPPool";
  o.name = std::move(name);
  doc_map spec{{"cidr", doc_node{cidr.to_string()}}};
  if (!ipip.empty()) spec.emplace_back("ipipMode", doc_node{std::move(ipip)});
  spec.emplace_back("natOutgoing", doc_node{nat});
  if (disabled) spec.emplace_back("disabled", doc_node{true});
  o.body = {{"spec", doc_node{std::move(spec)}}};
  return o;
}

auto calico_apply(kube_object o) -> apply_object {
  apply_object a;
  a.object = std::move(o);
  a.tool = object_tool::calicoctl;
  return a;
}

// Two kops clusters on Calico sharing the pod range a peering carries: the plan swaps one's pool.
constexpr std::string_view calico_fleet =
    "clusters:\n"
    "  - {name: a, distribution: kops, kubernetes: \"1.29\", cni: calico, network: 172.20.0.0/16, "
    "pods: 100.96.0.0/11, services: 100.64.0.0/13}\n"
    "  - {name: b, distribution: kops, kubernetes: \"1.29\", cni: calico, network: 172.21.0.0/16, "
    "pods: 100.96.0.0/11, services: 100.72.0.0/13}\n"
    "connections:\n"
    "  - {between: [a, b], via: peering, routes: [pods]}\n";

// The kops story's pool swap (seed 002), with what item 5 adds: the new pool copies the
// old one's encapsulation and NAT, the old pool is disabled from its exported definition,
// node IPAM off before podCIDR moves, kube-proxy's clusterCIDR on the new pool, CoreDNS
// scaled up before pods move, the route on the peering first and withdrawn last.
struct calico_case {
  planned p{calico_fleet};
  runbook book;
  prefix from, to;

  calico_case() {
    const auto& c = p.result.changes.at(p.result.operations.front().changes.front());
    from = c.from;
    to = c.to;
    const auto o = c.owner;
    book.kind = p.result.operations.front().kind;
    book.owners = {o};
    auto& s = book.steps;
    s.push_back(step(o, advertise_route{to, from, 0u, std::nullopt}));
    s.push_back(step(o, calico_apply(ippool("new-pool", to, "CrossSubnet", true, false))));
    auto old_pool = ippool("", from, "CrossSubnet", true, true);
    old_pool.name_hint = "the pool whose cidr is " + from.to_string();
    s.push_back(step(o, calico_apply(old_pool)));
    s.push_back(step(o, set_flag{component::kube_controller_manager, "--allocate-node-cidrs", false}));
    s.push_back(step(o, set_flag{component::kube_controller_manager, "--cluster-cidr", std::vector<prefix>{to}}));
    s.push_back(step(o, set_flag{component::kube_proxy, "clusterCIDR", std::vector<prefix>{to}}));
    s.push_back(step(o, apply_configuration{}));  // kops update and rolling-update (config-apply-separate)
    auto moving = restart(workload_selection::all_pods);
    moving.scale_up_first = {"kube-system/coredns"};
    s.push_back(step(o, moving, {expect(observable::pod_addresses, expectation::none_in, {from})}));
    node_selection all;
    s.push_back(step(o, roll_nodes{all}));
    delete_object gone;
    gone.api_version = "projectcalico.org/v3";
    gone.kind = "IPPool";
    gone.name_hint = old_pool.name_hint;
    gone.tool = object_tool::calicoctl;
    s.push_back(step(o, gone));
    s.push_back(step(o, withdraw_route{from, 0u, std::nullopt}));
  }

  auto run() const -> simulation_result { return simulate_runbook(p.context, book); }
  template <class Kind>
  auto at(auto&& also) const -> std::size_t {
    return index_of(book, is<Kind>(also));
  }
};

TEST(SimulateCalicoPoolSwap, TheStoryOrderWithItsCorrectionsPasses) {
  calico_case c;
  auto r = c.run();
  EXPECT_TRUE(r.passed()) << describe(r);
}

TEST(SimulateCalicoPoolSwap, ANewPoolWithoutTheOldEncapsulationCutsTrafficBetweenSubnets) {
  calico_case c;
  auto add_at = c.at<apply_object>([](const apply_object& a) { return a.object.name == "new-pool"; });
  std::get<apply_object>(c.book.steps[add_at].action).object = ippool("new-pool", c.to, "", true, false);
  auto moved_at = c.at<restart_workloads>(any);
  expect_refused(c.run(), moved_at, simulation_check::reachability, simulation_rule::pool_encapsulation);
}

TEST(SimulateCalicoPoolSwap, DisablingTheOldPoolWithAShortManifestResetsItsEncapsulation) {
  calico_case c;
  auto disable_at = c.at<apply_object>([](const apply_object& a) { return a.object.name.empty(); });
  auto& pool = std::get<apply_object>(c.book.steps[disable_at].action).object;
  pool = ippool("", c.from, "", false, true);
  expect_refused(c.run(), disable_at, simulation_check::reachability, simulation_rule::pool_apply_replaces);
}

TEST(SimulateCalicoPoolSwap, KubectlOnCalicosInternalResourcesIsRefused) {
  calico_case c;
  auto add_at = c.at<apply_object>([](const apply_object& a) { return a.object.name == "new-pool"; });
  auto& add = std::get<apply_object>(c.book.steps[add_at].action);
  add.object.api_version = "crd.projectcalico.org/v1";
  add.tool = object_tool::kubectl;
  expect_refused(c.run(), add_at, simulation_check::step_refused, simulation_rule::calico_tool);
}

TEST(SimulateCalicoPoolSwap, PodCidrMovedWhileNodeIpamRunsStopsKubeControllerManager) {
  // seed 002: "otherwise kube-controller-manager will refuse to start".
  calico_case c;
  auto allocate_at = c.at<set_flag>([](const set_flag& f) { return f.flag == "--allocate-node-cidrs"; });
  c.book.steps.erase(c.book.steps.begin() + static_cast<std::ptrdiff_t>(allocate_at));
  expect_refused(c.run(), c.at<apply_configuration>(any), simulation_check::control_plane, simulation_rule::kcm_refuses);
}

// Was: a kops spec edit took effect as it was written, so a runbook that never
// applied the spec passed, and one that applied each edit alone rolled the
// cluster once per edit. Edits now run only once applied (config-apply-separate).
TEST(SimulateCalicoPoolSwap, ASpecEditedAndNeverAppliedLeavesTheOldValuesRunning) {
  calico_case c;
  c.book.steps.erase(c.book.steps.begin() + static_cast<std::ptrdiff_t>(c.at<apply_configuration>(any)));
  auto r = c.run();
  ASSERT_FALSE(r.passed());
  bool unapplied = std::any_of(r.failures.begin(), r.failures.end(), [](const simulation_failure& f) {
    return f.rule == simulation_rule::configuration_applied && f.check == simulation_check::end_state;
  });
  EXPECT_TRUE(unapplied) << describe(r);
}

TEST(SimulateCalicoPoolSwap, AnEditTakesEffectAtTheApplyNotBefore) {
  // The pod range moved while Nodes still hold old podCIDRs: kube-controller-manager
  // stops at the apply that makes it read the flag, not at the edit.
  calico_case c;
  auto allocate_at = c.at<set_flag>([](const set_flag& f) { return f.flag == "--allocate-node-cidrs"; });
  c.book.steps.erase(c.book.steps.begin() + static_cast<std::ptrdiff_t>(allocate_at));
  auto r = c.run();
  ASSERT_FALSE(r.passed());
  EXPECT_EQ(r.failures.front().step, c.at<apply_configuration>(any)) << describe(r);
}

TEST(SimulateCalicoPoolSwap, CoreDnsNotScaledUpBeforePodsMove) {
  calico_case c;
  auto moved_at = c.at<restart_workloads>(any);
  std::get<restart_workloads>(c.book.steps[moved_at].action).scale_up_first.clear();
  expect_refused(c.run(), moved_at, simulation_check::dns, simulation_rule::scale_before_roll);
}

TEST(SimulateCalicoPoolSwap, PodsRestartedBeforeTheOldPoolIsDisabledStayOnIt) {
  calico_case c;
  auto disable_at = c.at<apply_object>([](const apply_object& a) { return a.object.name.empty(); });
  auto moved = c.book.steps[c.at<restart_workloads>(any)];
  c.book.steps.erase(c.book.steps.begin() + static_cast<std::ptrdiff_t>(c.at<restart_workloads>(any)));
  c.book.steps.insert(c.book.steps.begin() + static_cast<std::ptrdiff_t>(disable_at), moved);
  auto r = c.run();
  ASSERT_FALSE(r.passed());
  EXPECT_EQ(r.failures.front().step, disable_at) << describe(r);
  EXPECT_EQ(r.failures.front().check, simulation_check::step_check) << describe(r);
}

TEST(SimulateCalicoPoolSwap, OldPoolDeletedWhilePodsStillUseIt) {
  calico_case c;
  auto delete_at = c.at<delete_object>(any);
  auto gone = c.book.steps[delete_at];
  c.book.steps.erase(c.book.steps.begin() + static_cast<std::ptrdiff_t>(delete_at));
  auto disable_at = c.at<apply_object>([](const apply_object& a) { return a.object.name.empty(); });
  c.book.steps.insert(c.book.steps.begin() + static_cast<std::ptrdiff_t>(disable_at) + 1, gone);
  expect_refused(c.run(), disable_at + 1, simulation_check::reachability, simulation_rule::pool_in_use);
}

TEST(SimulateCalicoPoolSwap, KubeProxyLeftOnTheOldRange) {
  calico_case c;
  auto proxy_at = c.at<set_flag>([](const set_flag& f) { return f.target == component::kube_proxy; });
  c.book.steps.erase(c.book.steps.begin() + static_cast<std::ptrdiff_t>(proxy_at));
  expect_refused(c.run(), c.book.steps.size(), simulation_check::end_state, simulation_rule::kube_proxy_cluster_cidr);
}

}  // namespace
}  // namespace cidrcheck

namespace cidrcheck {
namespace {

// Two kubeadm clusters on Flannel sharing the pod range a VPN carries: node IPAM moves one.
constexpr std::string_view flannel_fleet =
    "clusters:\n"
    "  - {name: a, distribution: kubeadm, kubernetes: \"1.29\", cni: flannel, network: 10.1.0.0/16, "
    "pods: 10.244.0.0/16, services: 10.96.0.0/16}\n"
    "  - {name: b, distribution: kubeadm, kubernetes: \"1.29\", cni: flannel, network: 10.11.0.0/16, "
    "pods: 10.244.0.0/16, services: 10.100.0.0/16}\n"
    "connections:\n"
    "  - {between: [a, b], via: vpn, routes: [pods]}\n";

// kcm-node-ipam: a Node's podCIDR never changes, so the old Nodes leave before
// --cluster-cidr moves (kcm-flag-when), flanneld's Network names the new range
// before nodes come back (flannel-pod-move), control-plane nodes get their label
// and taint again (kadm-cp-reregister). Workloads are down from the drain until
// the nodes are back: the steps say so.
struct node_ipam_case {
  planned p;
  runbook book;
  prefix from, to;

  // The node IPAM runbook of the pod range the plan's first operation moves.
  explicit node_ipam_case(std::string_view yaml = flannel_fleet) : p(yaml) {
    const auto& op = p.result.operations.front();
    const auto& c = p.result.changes.at(*std::find_if(op.changes.begin(), op.changes.end(), [&](std::uint32_t k) {
      return p.result.changes[k].role == range_role::pods;
    }));
    from = c.from;
    to = c.to;
    const auto o = c.owner;
    book.kind = "kcm-node-ipam";
    book.owners = {o};
    auto& s = book.steps;
    s.push_back(step(o, advertise_route{to, from, 0u, std::nullopt}));
    s.push_back(step(o, edit_field{config_store::kubeadm_configuration, "networking.podSubnet", std::vector<prefix>{to}}));
    // flanneld's Network, where the IPAM profile says the CNI configuration names the pod range.
    const auto range_field = builtin_catalog().profile_of(p.original.owners[o]).ipam->range_field.value;
    s.push_back(step(o, edit_field{config_store::cni_configuration, range_field, std::vector<prefix>{to}}));
    node_selection all;
    s.push_back(step(o, drain_nodes{all}));
    s.push_back(step(o, remove_nodes{all}));
    s.push_back(step(o, set_flag{component::kube_controller_manager, "--cluster-cidr", std::vector<prefix>{to}}));
    register_nodes back;
    back.restore_control_plane = true;
    s.push_back(step(o, back, {expect(observable::node_pod_cidrs, expectation::all_in, {to})}));
    s.push_back(step(o, edit_field{config_store::kube_proxy_configuration, "clusterCIDR", std::vector<prefix>{to}}));
    s.push_back(step(o, restart(workload_selection::component, component::kube_proxy)));
    s.push_back(step(o, withdraw_route{from, 0u, std::nullopt}, {expect(observable::pod_addresses, expectation::none_in, {from})}));
  }

  auto run() const -> simulation_result { return simulate_runbook(p.context, book); }
  template <class Kind>
  auto at(auto&& also) const -> std::size_t {
    return index_of(book, is<Kind>(also));
  }
};

TEST(SimulateNodeIpam, NodesLeaveThenTheFlagMovesThenNodesComeBack) {
  node_ipam_case c;
  auto r = c.run();
  EXPECT_TRUE(r.passed()) << describe(r);
}

TEST(SimulateNodeIpam, ClusterCidrSwitchedBeforeTheOldNodesAreGone) {
  node_ipam_case c;
  auto flag_at = c.at<set_flag>(any);
  auto flag = c.book.steps[flag_at];
  c.book.steps.erase(c.book.steps.begin() + static_cast<std::ptrdiff_t>(flag_at));
  auto drain_at = c.at<drain_nodes>(any);
  c.book.steps.insert(c.book.steps.begin() + static_cast<std::ptrdiff_t>(drain_at), flag);
  expect_refused(c.run(), drain_at, simulation_check::control_plane, simulation_rule::kcm_refuses);
}

TEST(SimulateNodeIpam, FlannelNetworkLeftOnTheOldRange) {
  node_ipam_case c;
  c.book.steps.erase(c.book.steps.begin() +
                     static_cast<std::ptrdiff_t>(c.at<edit_field>(
                         [](const edit_field& e) { return e.store == config_store::cni_configuration; })));
  // The nodes come back with new podCIDRs that flanneld refuses: their pods never get
  // addresses, so the interruption the drain began never ends.
  expect_refused(c.run(), c.book.steps.size(), simulation_check::reachability, simulation_rule::flannel_network);
}

TEST(SimulateNodeIpam, ControlPlaneNodesRegisteredWithoutTheirLabelAndTaint) {
  node_ipam_case c;
  std::get<register_nodes>(c.book.steps[c.at<register_nodes>(any)].action).restore_control_plane = false;
  expect_refused(c.run(), c.book.steps.size(), simulation_check::end_state, simulation_rule::control_plane_reregister);
}

}  // namespace
}  // namespace cidrcheck

namespace cidrcheck {
namespace {

TEST(SimulateK3s, ATemporaryDnsServiceFightsTheDnsAddonK3sRerenders) {
  // dns-addon-rerender-conflict: k3s renders kube-dns at --cluster-dns on every server start;
  // kube-dns-next holding the new address makes that apply fail.
  std::string yaml = services_fleet("1.31");
  for (auto at = yaml.find("kubeadm"); at != std::string::npos; at = yaml.find("kubeadm")) yaml.replace(at, 7, "k3s");
  planned p(yaml);
  auto name = p.original.owners[p.result.operations.front().owners.front()].name;
  auto book = service_move(p, name, "networking.k8s.io/v1beta1", false);
  // k3s sets the kubelet's DNS address as the server flag --cluster-dns, all servers restarted.
  auto edit_at = index_of(book, is<edit_field>([](const edit_field& e) { return e.path == "clusterDNS"; }));
  const auto dns = std::get<std::vector<address>>(std::get<edit_field>(book.steps[edit_at].action).value);
  book.steps[edit_at].action = set_flag{component::kubelet, "clusterDNS", dns, rollout::all_together};
  book.steps.erase(book.steps.begin() + static_cast<std::ptrdiff_t>(edit_at) + 1);  // the kubelet restart
  auto r = simulate_runbook(p.context, book);
  expect_refused(r, edit_at, simulation_check::dns, simulation_rule::dns_addon_rerender);
}

TEST(SimulateK3s, StoppingEveryServersKubeletStopsTheControlPlane) {
  // k3s-one-process: the node-IPAM runbook of kubeadm removes every node, servers included.
  std::string yaml(flannel_fleet);
  for (auto at = yaml.find("kubeadm"); at != std::string::npos; at = yaml.find("kubeadm")) yaml.replace(at, 7, "k3s");
  for (auto at = yaml.find(", cni: flannel"); at != std::string::npos; at = yaml.find(", cni: flannel")) yaml.erase(at, 14);
  planned p(yaml);
  node_ipam_case shape;
  runbook book = shape.book;
  const auto& c = p.result.changes.at(p.result.operations.front().changes.front());
  for (auto& s : book.steps) s.owner = c.owner;
  // No kube-flannel-cfg and no kubeadm configuration on k3s.
  std::erase_if(book.steps, [](const runbook_step& s) { return std::holds_alternative<edit_field>(s.action); });
  auto remove_at = index_of(book, is<remove_nodes>(any));
  auto r = simulate_runbook(p.context, book);
  expect_refused(r, remove_at, simulation_check::control_plane, simulation_rule::kubelet_in_server);
}

}  // namespace
}  // namespace cidrcheck

namespace cidrcheck {
namespace {

TEST(SimulateFleetCheck, ARangeInUseThatOverlapsAnotherOwnersIsAnErrorOfThatMoment) {
  // The new ServiceCIDR holds the other cluster's network, which the VPN brings to it.
  service_case c("1.31", "networking.k8s.io/v1beta1", false);
  auto other = c.book.owners.front() == c.p.owner("a") ? "b" : "a";
  prefix network;
  for (auto k : c.p.original.owners[c.p.owner(other)].ranges) {
    if (c.p.original.ranges[k].role == range_role::network) network = c.p.original.ranges[k].cidr;
  }
  auto apply_at = c.at<apply_object>([](const apply_object& s) { return s.object.kind == "ServiceCIDR"; });
  std::get<apply_object>(c.book.steps[apply_at].action).object = service_cidr_object("networking.k8s.io/v1beta1",
                                                                                      "services-new", network);
  auto r = c.run();
  expect_refused(r, apply_at, simulation_check::fleet, std::nullopt);
  EXPECT_NE(r.failures.front().message.find(network.to_string()), std::string::npos) << describe(r);
}

}  // namespace
}  // namespace cidrcheck

namespace cidrcheck {
namespace {

auto pod_ip_pool(const std::vector<prefix>& cidrs) -> kube_object {
  kube_object o;
  o.api_version = "cilium.io/v2alpha1";
  o.kind = "CiliumPodIPPool";
  o.name = "default";
  doc_list list;
  for (const auto& c : cidrs) list.emplace_back(c.to_string());
  o.body = {{"spec", doc_node{doc_map{{"ipv4", doc_node{doc_map{{"cidrs", doc_node{list}},
                                                                 {"maskSize", doc_node{std::int64_t{24}}}}}}}}}};
  return o;
}

// Two clusters on Cilium multi-pool sharing the pod range a peering carries.
constexpr std::string_view cilium_fleet =
    "clusters:\n"
    "  - {name: a, distribution: kubeadm, kubernetes: \"1.31\", cni: cilium, ipam: multi-pool, network: 10.1.0.0/16, "
    "pods: 10.200.0.0/16, services: 10.96.0.0/16}\n"
    "  - {name: b, distribution: kubeadm, kubernetes: \"1.31\", cni: cilium, ipam: multi-pool, network: 10.11.0.0/16, "
    "pods: 10.200.0.0/16, services: 10.100.0.0/16}\n"
    "connections:\n"
    "  - {between: [a, b], via: peering, routes: [pods]}\n";

// The documented change of an in-use pool (cilium-multipool-update): the pool
// recreated with the new CIDRs, the operator restarted, then the nodes rolled.
struct cilium_case {
  planned p{cilium_fleet};
  runbook book;
  prefix from, to;

  cilium_case() {
    const auto& c = p.result.changes.at(p.result.operations.front().changes.front());
    from = c.from;
    to = c.to;
    const auto o = c.owner;
    book.kind = p.result.operations.front().kind;
    book.owners = {o};
    auto& s = book.steps;
    s.push_back(step(o, advertise_route{to, from, 0u, std::nullopt}));
    apply_object pool;
    pool.object = pod_ip_pool({to});
    s.push_back(step(o, pool));
    s.push_back(step(o, restart(workload_selection::component, component::cni_operator)));
    node_selection all;
    s.push_back(step(o, roll_nodes{all}, {expect(observable::pod_addresses, expectation::none_in, {from})}));
    s.push_back(step(o, withdraw_route{from, 0u, std::nullopt}));
  }

  auto run() const -> simulation_result { return simulate_runbook(p.context, book); }
};

TEST(SimulateCiliumMultiPool, PoolChangedOperatorRestartedThenNodesRolled) {
  cilium_case c;
  auto r = c.run();
  EXPECT_TRUE(r.passed()) << describe(r);
}

TEST(SimulateCiliumMultiPool, NodesRolledBeforeTheOperatorRestarts) {
  cilium_case c;
  // The roll (with its check that no pod is left in the old range) before the operator restart.
  std::swap(c.book.steps[2], c.book.steps[3]);
  expect_refused(c.run(), 2, simulation_check::step_check, simulation_rule::operator_reads_pools);
}

}  // namespace
}  // namespace cidrcheck

namespace cidrcheck {
namespace {

// The runbook of the plan's operation (or change outside one) of kind `kind`, from planned p.
auto plan_book(const planned& p, std::string_view kind) -> runbook {
  for (auto& b : plan_runbooks(p.original, p.result, builtin_catalog())) {
    if (b.kind == kind) return b;
  }
  throw std::logic_error("no runbook of kind " + std::string(kind));
}

auto erase_step(runbook& book, std::size_t at) -> runbook_step {
  auto s = book.steps[at];
  book.steps.erase(book.steps.begin() + static_cast<std::ptrdiff_t>(at));
  return s;
}

// A GKE cluster's default pod range holds a branch behind the on-premises
// router (issue 26): new node pools on a new range, the old withdrawn.
constexpr std::string_view gke_branch_fleet =
    "networks:\n"
    "  - {name: gcp-vpc, type: gcp-vpc, cidrs: 10.10.0.0/20}\n"
    "  - {name: onprem, cidrs: 192.168.0.0/16, routes: [{cidr: 10.4.0.0/16, to: branch}]}\n"
    "  - {name: branch, type: office, cidrs: 10.4.0.0/16}\n"
    "clusters:\n"
    "  - {name: analytics, distribution: gke, runs_in: gcp-vpc, nodes: 60, network: 10.10.0.0/20, pods: 10.4.0.0/14, "
    "services: 34.118.224.0/20}\n"
    "connections:\n"
    "  - {name: cloud-vpn, between: [analytics, onprem], via: vpn, routes: [network, pods, services]}\n";

TEST(SimulateGkePodRangeWithdraw, NewPoolsThenTheOldRangeWithdrawnPasses) {
  planned p(gke_branch_fleet);
  auto book = plan_book(p, "gke-pod-range-withdraw");
  auto r = simulate_runbook(p.context, book);
  EXPECT_TRUE(r.passed()) << describe(r);
}

TEST(SimulateGkePodRangeWithdraw, TheOldRangeWithdrawnWhilePodsStillUseIt) {
  planned p(gke_branch_fleet);
  auto book = plan_book(p, "gke-pod-range-withdraw");
  auto withdraw = erase_step(book, index_of(book, is<withdraw_route>([](const auto&) { return true; })));
  withdraw.needs.clear();
  withdraw.checks.clear();
  auto roll_at = index_of(book, is<change_resource>([](const change_resource& c) { return c.what == resource_kind::node_pool; }));
  book.steps.insert(book.steps.begin() + static_cast<std::ptrdiff_t>(roll_at), withdraw);
  auto r = simulate_runbook(p.context, book);
  ASSERT_FALSE(r.passed());
  EXPECT_EQ(r.failures.front().rule, simulation_rule::route_carries) << describe(r);
}

TEST(SimulateGkePodRangeWithdraw, TheOldRangeNeverWithdrawnFailsAtTheEnd) {
  planned p(gke_branch_fleet);
  auto book = plan_book(p, "gke-pod-range-withdraw");
  auto& never = book.steps[index_of(book, is<withdraw_route>([](const auto&) { return true; }))];
  never.action = verify{};
  never.checks.clear();  // the end state, not the step's own check, must catch it
  auto r = simulate_runbook(p.context, book);
  ASSERT_FALSE(r.passed());
  EXPECT_EQ(r.failures.front().check, simulation_check::end_state) << describe(r);
  EXPECT_EQ(r.failures.front().rule, simulation_rule::route_carries) << describe(r);
}

TEST(SimulateGkePodRangeWithdraw, TheNewRangeNeverAdvertisedIsOutOfReach) {
  planned p(gke_branch_fleet);
  auto book = plan_book(p, "gke-pod-range-withdraw");
  erase_step(book, index_of(book, is<advertise_route>([](const auto&) { return true; })));
  for (auto& s : book.steps) std::erase(s.needs, "new-route-advertised");
  auto r = simulate_runbook(p.context, book);
  ASSERT_FALSE(r.passed());
  EXPECT_EQ(r.failures.front().rule, simulation_rule::route_carries) << describe(r);
}

// A range the plan creates at a requested size: the cluster is created with it.
constexpr std::string_view creation_fleet =
    "clusters:\n"
    "  - {name: new, distribution: kubeadm, kubernetes: \"1.33\", network: 10.20.0.0/16, pods: 10.244.0.0/16, "
    "services: /16}\n";

TEST(SimulateNewRange, AClusterCreatedWithItsPlannedRangeUsesIt) {
  planned p(creation_fleet);
  auto book = plan_book(p, "new-range");
  auto r = simulate_runbook(p.context, book);
  EXPECT_TRUE(r.passed()) << describe(r);
}

TEST(SimulateNewRange, AClusterCreatedWithAnotherRangeIsNotThePlannedFleet) {
  planned p(creation_fleet);
  auto book = plan_book(p, "new-range");
  auto& create = std::get<change_resource>(
      book.steps[index_of(book, is<change_resource>([](const change_resource& s) { return s.role.has_value(); }))].action);
  ASSERT_EQ(create.ranges.size(), 1u);
  create.ranges = {prefix::parse("10.99.0.0/16")};
  auto r = simulate_runbook(p.context, book);
  expect_refused(r, book.steps.size(), simulation_check::end_state, std::nullopt);
  EXPECT_NE(r.failures.front().message.find("services 10.99.0.0/16, where the plan has"), std::string::npos) << describe(r);
}

// Was: a runbook of no catalog kind ended as the original fleet for every role its steps did not name,
// so one that created nothing passed.
TEST(SimulateNewRange, ARunbookThatCreatesNothingFailsItsEnd) {
  planned p(creation_fleet);
  auto book = plan_book(p, "new-range");
  book.steps.clear();
  auto r = simulate_runbook(p.context, book);
  expect_refused(r, 0, simulation_check::end_state, std::nullopt);
}

// A cluster whose kubelets hand out a DNS address outside its service range (dns-outside-service-range):
// no Service can hold that address, so pods have had no DNS; the plan puts the address back.
constexpr std::string_view dead_dns_fleet =
    "clusters:\n"
    "  - {name: lab, distribution: kubeadm, kubernetes: \"1.30\", cni: flannel, network: 10.70.0.0/16, "
    "pods: 10.244.0.0/16, services: 10.96.0.0/12, dns: 10.200.0.10}\n";

// Was: the model put kube-dns at the dead address, so the runbook "lost" a DNS that never answered,
// and the end state held the kubelets to the old address (2 failures).
TEST(SimulateDnsAddress, PuttingTheAddressBackPasses) {
  planned p(dead_dns_fleet);
  auto r = simulate_runbook(p.context, plan_book(p, "dns-address"));
  EXPECT_TRUE(r.passed()) << describe(r);
}

TEST(SimulateDnsAddress, KubeletsLeftOnTheDeadAddressFailTheEnd) {
  planned p(dead_dns_fleet);
  auto book = plan_book(p, "dns-address");
  erase_step(book, index_of(book, is<set_flag>([](const set_flag& s) { return s.target == component::kubelet; })));
  auto r = simulate_runbook(p.context, book);
  ASSERT_FALSE(r.passed());
  EXPECT_EQ(r.failures.back().check, simulation_check::end_state) << describe(r);
  EXPECT_NE(r.failures.back().message.find("DNS address 10.200.0.10, where the plan has 10.96.0.10"), std::string::npos)
      << describe(r);
}

// A GKE cluster whose node subnet overlaps an on-premises network: replaced by one numbered as planned.
constexpr std::string_view replacement_fleet =
    "networks:\n"
    "  - {name: dc, type: onprem, cidrs: [10.10.0.0/16]}\n"
    "clusters:\n"
    "  - {name: analytics, distribution: gke, kubernetes: \"1.31\", network: 10.10.0.0/20, pods: 10.16.0.0/14, "
    "services: 10.20.0.0/20}\n"
    "connections:\n"
    "  - {between: [analytics, dc], routes: [network]}\n";

auto is_cluster(resource_action a) {
  return is<change_resource>([a](const change_resource& s) { return s.what == resource_kind::cluster && s.action == a; });
}

TEST(SimulateReplacementCluster, TheReplacementTakesTheOldClustersPlaceAndNetwork) {
  planned p(replacement_fleet);
  auto r = simulate_runbook(p.context, plan_book(p, "replacement-cluster"));
  EXPECT_TRUE(r.passed()) << describe(r);
}

TEST(SimulateReplacementCluster, TheOldClusterDeletedBeforeItsReplacementIsBuilt) {
  planned p(replacement_fleet);
  auto book = plan_book(p, "replacement-cluster");
  auto build = erase_step(book, index_of(book, is_cluster(resource_action::create)));
  const auto remove_at = index_of(book, is_cluster(resource_action::remove));
  book.steps.insert(book.steps.begin() + static_cast<std::ptrdiff_t>(remove_at) + 1, build);
  // Nothing serves the workloads from the deletion on.
  expect_refused(simulate_runbook(p.context, book), remove_at, simulation_check::reachability, std::nullopt);
}

// A VPC shared by an EKS cluster (replaced in the new VPC) and a kubeadm cluster (its nodes moved there).
constexpr std::string_view shared_vpc_fleet =
    "networks:\n"
    "  - {name: main-vpc, type: aws-vpc, cidrs: [10.50.0.0/16], movable: true}\n"
    "  - {name: partner, type: peer, cidrs: [10.50.0.0/16]}\n"
    "clusters:\n"
    "  - {name: shop, distribution: eks, kubernetes: \"1.31\", network: 10.50.0.0/17, pods: [], services: 172.20.0.0/16}\n"
    "  - {name: jobs, distribution: kubeadm, kubernetes: \"1.33\", network: 10.50.128.0/17, pods: 10.62.0.0/16, "
    "services: 10.63.0.0/16}\n"
    "connections:\n"
    "  - {between: [main-vpc, partner], via: peering}\n"
    "  - {between: [shop, partner], routes: [network]}\n"
    "  - {between: [jobs, partner], routes: [network]}\n";

TEST(SimulateNewVpc, EveryClusterTheVpcTakesAlongEndsInTheNewOne) {
  planned p(shared_vpc_fleet);
  auto r = simulate_runbook(p.context, plan_book(p, "new-vpc"));
  EXPECT_TRUE(r.passed()) << describe(r);
}

TEST(SimulateNewVpc, AClusterWhoseNodesNeverMoveLosesItsNetworkWithTheOldVpc) {
  planned p(shared_vpc_fleet);
  auto book = plan_book(p, "new-vpc");
  erase_step(book, index_of(book, is<change_resource>([](const change_resource& s) { return s.what == resource_kind::node_pool; })));
  auto r = simulate_runbook(p.context, book);
  expect_refused(r, book.steps.size(), simulation_check::end_state, std::nullopt);
  EXPECT_NE(r.failures.front().message.find("jobs ends using"), std::string::npos) << describe(r);
}

// An EKS cluster on VPC CNI custom networking whose pod block collides with a partner's network.
constexpr std::string_view custom_networking_fleet =
    "networks:\n"
    "  - {name: partner, type: peer, cidrs: [100.64.0.0/16]}\n"
    "clusters:\n"
    "  - {name: shop, distribution: eks, kubernetes: \"1.31\", cni: vpc-cni, ipam: custom-networking, "
    "network: 10.20.0.0/16, pods: 100.64.0.0/16, services: 172.20.0.0/16}\n"
    "connections:\n"
    "  - [shop, partner]\n";

auto is_roll = is<roll_nodes>(any);
auto is_agent_patch = is<apply_object>([](const apply_object& s) { return s.object.kind == "DaemonSet"; });
auto is_eniconfig = is<apply_object>([](const apply_object& s) { return s.object.kind == "ENIConfig"; });

TEST(SimulateCustomNetworking, PodsOfNodesStartedAfterTheSwitchTakeTheirZonesEniConfigSubnet) {
  planned p(custom_networking_fleet);
  auto r = simulate_runbook(p.context, plan_book(p, "vpc-cni-custom-networking"));
  EXPECT_TRUE(r.passed()) << describe(r);
}

TEST(SimulateCustomNetworking, NodesRolledBeforeTheSwitchKeepTheirOwnSubnet) {
  planned p(custom_networking_fleet);
  auto book = plan_book(p, "vpc-cni-custom-networking");
  auto roll = erase_step(book, index_of(book, is_roll));
  book.steps.insert(book.steps.begin() + static_cast<std::ptrdiff_t>(index_of(book, is_agent_patch)), roll);
  // The check that no pod is left in the old range, after the roll, fails.
  std::size_t check_at = index_of(book, is_agent_patch) + 1;
  while (book.steps[check_at].checks.empty()) ++check_at;
  expect_refused(simulate_runbook(p.context, book), check_at, simulation_check::step_check,
                 simulation_rule::custom_networking);
}

TEST(SimulateCustomNetworking, NodesRolledWithoutEniConfigsHaveNoPodAddresses) {
  planned p(custom_networking_fleet);
  auto book = plan_book(p, "vpc-cni-custom-networking");
  std::erase_if(book.steps, [](const runbook_step& s) { return is_eniconfig(s.action); });
  expect_refused(simulate_runbook(p.context, book), index_of(book, is_roll), simulation_check::reachability,
                 simulation_rule::custom_networking);
}

TEST(SimulateCustomNetworking, TheOldBlockDisassociatedWhilePodsStillUseIt) {
  planned p(custom_networking_fleet);
  auto book = plan_book(p, "vpc-cni-custom-networking");
  auto is_drop = is<change_resource>([](const change_resource& s) { return s.action == resource_action::disassociate; });
  auto drop = erase_step(book, index_of(book, is_drop));
  const auto roll_at = index_of(book, is_roll);
  book.steps.insert(book.steps.begin() + static_cast<std::ptrdiff_t>(roll_at), drop);
  expect_refused(simulate_runbook(p.context, book), roll_at, simulation_check::reachability, simulation_rule::pool_in_use);
}

// kcm-node-ipam on a cluster whose pods take addresses from the network (the VPC
// CNI's secondary IPs, cni-vpc-cni-secondary-ip-source): --cluster-cidr hands out
// Node podCIDRs no pod uses, so moving it moves no pod, and the simulator says so.
// The planner no longer offers it there (kcm-moves-node-pods: it replaces the
// cluster, PlanOperations.NodeIpamOnlyForPodsNumberedFromNodePodCidrs); this is
// the runbook written by hand.
TEST(SimulateNodeIpam, MovingNodeIpamMovesNoPodThatTakesNetworkAddresses) {
  node_ipam_case c("clusters:\n"
                   "  - {name: a, distribution: kubeadm, kubernetes: \"1.31\", cni: vpc-cni, ipam: secondary-ip, "
                   "network: 10.1.0.0/16, pods: 10.200.0.0/16, services: 10.3.0.0/16}\n"
                   "  - {name: b, distribution: kubeadm, kubernetes: \"1.31\", cni: vpc-cni, ipam: secondary-ip, "
                   "network: 10.11.0.0/16, pods: 10.200.0.0/16, services: 10.13.0.0/16}\n"
                   "connections:\n"
                   "  - {between: [a, b], routes: [pods]}\n");
  std::erase_if(c.book.steps, [](const runbook_step& s) {
    const auto* e = std::get_if<edit_field>(&s.action);
    return e != nullptr && e->store == config_store::cni_configuration;
  });
  auto r = c.run();
  // The check before the old route goes: the pods are still in the old range.
  expect_refused(r, c.book.steps.size() - 1, simulation_check::step_check, std::nullopt);
  EXPECT_NE(r.failures.front().message.find("in " + c.from.to_string()), std::string::npos) << describe(r);
}

}  // namespace
}  // namespace cidrcheck

namespace cidrcheck {
namespace {

// A runbook with no steps leaves every range where it was, so its end state is
// never the planned fleet: the end-state check refuses it, for every kind of
// catalog operation (before, it passed trivially: a range no step named was
// not expected to move).
TEST(SimulateEndState, AnEmptyRunbookNeverReachesThePlannedFleet) {
  const auto services = services_fleet("1.33");
  std::set<std::string> kinds;
  for (std::string_view yaml : {std::string_view(services), flannel_fleet, calico_fleet, cilium_fleet, creation_fleet,
                                replacement_fleet, shared_vpc_fleet, custom_networking_fleet}) {
    planned p(yaml);
    for (auto book : plan_runbooks(p.original, p.result, builtin_catalog())) {
      if (builtin_catalog().find_operation(book.kind) == nullptr) continue;  // a requested range: its steps say what it moves
      kinds.insert(book.kind);
      ASSERT_TRUE(simulate_runbook(p.context, book).passed()) << book.kind << ": the runbook as planned passes";
      book.steps.clear();
      auto r = simulate_runbook(p.context, book);
      ASSERT_FALSE(r.passed()) << book.kind << " with no steps passed";
      EXPECT_EQ(r.failures.front().check, simulation_check::end_state) << book.kind << ": " << describe(r);
    }
  }
  EXPECT_GE(kinds.size(), 7u);  // service-cidr-api, kcm-node-ipam, calico, cilium, replacement, new-vpc, custom networking
}

}  // namespace
}  // namespace cidrcheck
