// The service-range rows (lib/cidrcheck/fleet/operation_services.cpp) on the
// fixture fleets of tests/fixtures/fleets/runbook/services-*.yaml and inline
// fleets: the ordering rule, and one test per error of issue 24 item 5 about
// the ServiceCIDR API, kubeadm, k3s and kops service moves. Each names the
// output before the rewrite that it fails on.

#include "runbook_fixture.hpp"

#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/fleet/simulator.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cidrcheck {
namespace {

using testing::plan_fixture;
using testing::plan_text;
using testing::planned_runbooks;

// The typed runbook of operation k.
auto typed(const planned_runbooks& p, std::size_t k = 0) -> runbook {
  return plan_runbooks(p.model, p.result, builtin_catalog()).at(k);
}

template <class Action>
auto count_of(const runbook& r) -> std::size_t {
  std::size_t n = 0;
  for (const auto& s : r.steps) n += std::holds_alternative<Action>(s.action) ? 1 : 0;
  return n;
}

template <class Action, class Pred>
auto find_step(const runbook& r, Pred pred) -> int {
  for (std::size_t k = 0; k < r.steps.size(); ++k) {
    if (const auto* a = std::get_if<Action>(&r.steps[k].action); a && pred(*a)) return static_cast<int>(k);
  }
  return -1;
}

// The simulator's failures of the typed runbook of operation k, one per line.
auto simulated_failures(const planned_runbooks& p, std::size_t k = 0) -> std::vector<std::string> {
  auto planned = apply_plan(p.model, p.result);
  simulation_context context;
  context.original = &p.model;
  context.planned = &planned;
  context.catalog = &builtin_catalog();
  auto result = simulate_runbook(context, typed(p, k));
  std::vector<std::string> out;
  for (const auto& f : result.failures) out.push_back(to_string(f, result.steps));
  return out;
}

auto joined(const std::vector<std::string>& lines) -> std::string {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

auto all_files(const planned_runbooks& p) -> std::string {
  std::string out;
  for (const auto& f : p.files) out += f.text;
  return out;
}

auto kubeadm_services(const std::string& minor) -> planned_runbooks {
  return plan_text(
      "clusters:\n"
      "  - {name: a, distribution: kubeadm, kubernetes: \"" + minor + "\", network: 10.1.0.0/16, pods: 10.2.0.0/16, "
      "services: 10.96.0.0/16, service_count: 10}\n"
      "networks:\n  - {name: office, type: office, cidrs: [10.96.0.0/16]}\n"
      "connections:\n  - {between: [a, office], via: vpn}\n");
}

TEST(ServiceRunbooks, OrderingRuleOnEveryServiceFixture) {
  for (const auto* name : {"kubeadm-125", "kubeadm-127", "kubeadm-129", "kubeadm-131", "kubeadm-133", "kops-129", "k3s",
                           "rke2-126", "generic-unknown", "dualstack-133", "dualstack-both-133",
                           "dualstack-secondary-133", "dualstack-secondary-126"}) {
    SCOPED_TRACE(name);
    testing::expect_ordered(plan_fixture(std::string("services-") + name));
  }
}

// Was: 1.27-1.28 got a service-cidr-api runbook (with a fallback) and a v1alpha1 ServiceCIDR object.
TEST(ServiceRunbooks, NoServiceCidrObjectBefore129) {
  for (const auto* minor : {"1.27", "1.28"}) {
    auto p = kubeadm_services(minor);
    ASSERT_EQ(p.result.operations.size(), 1u);
    EXPECT_EQ(p.result.operations[0].kind, "service-window") << minor;
    // No step applies, enables or deletes a ServiceCIDR (runbook.md may say the API is not there).
    auto r = typed(p);
    EXPECT_LT(find_step<apply_object>(r, [](const apply_object& a) { return a.object.kind == "ServiceCIDR"; }), 0);
    EXPECT_LT(find_step<delete_object>(r, [](const delete_object& d) { return d.kind == "ServiceCIDR"; }), 0);
    EXPECT_EQ(count_of<enable_api>(r), 0u) << minor;
    for (const auto& f : p.files) {
      if (f.path.ends_with("/runbook.md")) continue;
      EXPECT_EQ(f.text.find("ServiceCIDR"), std::string::npos) << f.path;
    }
    EXPECT_EQ(p.text().find("default ServiceCIDR"), std::string::npos) << p.text();
  }
  EXPECT_EQ(kubeadm_services("1.29").result.operations.at(0).kind, "service-cidr-api");
}

// Was: the gate only on kube-apiserver; kube-controller-manager's ServiceCIDR controller owns the finalizer.
TEST(ServiceRunbooks, GateOnKubeControllerManagerTooBefore133) {
  for (const auto* minor : {"1.29", "1.31", "1.33"}) {
    auto r = typed(kubeadm_services(minor));
    auto k = find_step<set_feature_gate>(r, [](const set_feature_gate& g) { return g.gate == "MultiCIDRServiceAllocator"; });
    ASSERT_GE(k, 0) << minor;
    const auto& targets = std::get<set_feature_gate>(r.steps[static_cast<std::size_t>(k)].action).targets;
    EXPECT_NE(std::find(targets.begin(), targets.end(), component::kube_controller_manager), targets.end()) << minor;
    EXPECT_NE(std::find(targets.begin(), targets.end(), component::kube_apiserver), targets.end()) << minor;
  }
}

// Was: 1.33 treated as locked (no gate step); the gate is locked only from 1.34.
TEST(ServiceRunbooks, GateCheckedOn133AndLeftAloneFrom134) {
  auto gate = [](const runbook& r) {
    return find_step<set_feature_gate>(r, [](const set_feature_gate& g) { return g.gate == "MultiCIDRServiceAllocator"; });
  };
  EXPECT_GE(gate(typed(kubeadm_services("1.33"))), 0);
  EXPECT_LT(gate(typed(kubeadm_services("1.34"))), 0);
}

// Was: the retire step told the operator to look for reason OrphanIPAddress.
TEST(ServiceRunbooks, NoOrphanIPAddressReason) {
  for (const auto* name : {"kubeadm-131", "kubeadm-133", "kops-129"}) {
    auto p = plan_fixture(std::string("services-") + name);
    EXPECT_EQ(p.text().find("OrphanIPAddress"), std::string::npos) << name;
  }
}

// Was: the temporary ServiceCIDR stayed; upstream's migration ends by deleting it.
TEST(ServiceRunbooks, TheTemporaryServiceCidrIsDeletedAtTheEnd) {
  auto r = typed(plan_fixture("services-kubeadm-131"));
  auto created = find_step<apply_object>(r, [](const apply_object& a) { return a.object.kind == "ServiceCIDR"; });
  ASSERT_GE(created, 0);
  const auto name = std::get<apply_object>(r.steps[static_cast<std::size_t>(created)].action).object.name;
  auto flags = find_step<set_flag>(r, [](const set_flag& f) {
    return f.target == component::kube_apiserver && f.flag == "--service-cluster-ip-range";
  });
  auto deleted = find_step<delete_object>(r, [&](const delete_object& d) { return d.kind == "ServiceCIDR" && d.name == name; });
  ASSERT_GE(deleted, 0);
  EXPECT_GT(deleted, flags);
}

// Was: kubeadm 1.31 got kubeadm.k8s.io/v1beta3 in its service runbook and v1beta4 in its pod runbook.
TEST(ServiceRunbooks, OneKubeadmApiVersionPerCluster) {
  auto p = plan_fixture("services-kubeadm-131");
  auto text = all_files(p);
  EXPECT_NE(text.find("kubeadm.k8s.io/v1beta4"), std::string::npos);
  EXPECT_EQ(text.find("kubeadm.k8s.io/v1beta3"), std::string::npos);
  auto old = all_files(kubeadm_services("1.29"));
  EXPECT_NE(old.find("kubeadm.k8s.io/v1beta3"), std::string::npos);
  EXPECT_EQ(old.find("kubeadm.k8s.io/v1beta4"), std::string::npos);
}

// Was: "kubelet-config (key kubelet; kubelet-config-1.<minor> in older releases)" whatever the minor.
TEST(ServiceRunbooks, TheKubeletConfigMapIsTheOneOfTheRelease) {
  auto old = kubeadm_services("1.23");
  EXPECT_NE(old.text().find("ConfigMap kube-system/kubelet-config-1.23"), std::string::npos) << old.text();
  auto now = kubeadm_services("1.31");
  EXPECT_NE(now.text().find("ConfigMap kube-system/kubelet-config "), std::string::npos) << now.text();
}

// Was: verification read .spec.clusterIPs, which 1.19 and older do not have.
TEST(ServiceRunbooks, VerificationReadsAFieldTheReleaseHas) {
  auto p = kubeadm_services("1.19");
  bool any = false;
  for (const auto& s : p.steps()) {
    for (const auto& c : s.commands) {
      if (c.find("custom-columns") == std::string::npos || c.find("services") == std::string::npos) continue;
      any = true;
      EXPECT_EQ(c.find(".spec.clusterIPs"), std::string::npos) << c;
      EXPECT_NE(c.find(".spec.clusterIP"), std::string::npos) << c;
    }
  }
  EXPECT_TRUE(any);
}

// Was: a kube-dns-next Service at the new address, which k3s's and kops' own DNS add-on then fights.
TEST(ServiceRunbooks, NoTemporaryDnsServiceWhereTheDistributionRendersDns) {
  for (const auto* name : {"k3s", "kops-129"}) {
    auto r = typed(plan_fixture(std::string("services-") + name));
    EXPECT_LT(find_step<apply_object>(r, [](const apply_object& a) { return a.object.name == "kube-dns-next"; }), 0) << name;
  }
  auto kubeadm = typed(plan_fixture("services-kubeadm-131"));
  EXPECT_GE(find_step<apply_object>(kubeadm, [](const apply_object& a) { return a.object.name == "kube-dns-next"; }), 0);
}

// Was: k3s got the certificate step of an unknown distribution; k3s takes SANs with --tls-san.
TEST(ServiceRunbooks, K3sAddsSansWithTlsSanAndChangesCriticalFlagsOnAllServers) {
  auto p = plan_fixture("services-k3s");
  auto text = p.text();
  EXPECT_NE(text.find("--tls-san"), std::string::npos) << text;
  EXPECT_NE(text.find("`--service-cidr="), std::string::npos) << text;
  EXPECT_NE(text.find("restart all servers together"), std::string::npos) << text;
  EXPECT_NE(text.find("`--cluster-dns="), std::string::npos) << text;
}

TEST(ServiceRunbooks, KubeadmPersistsFlagsInKubeadmConfigAndManifests) {
  auto p = plan_fixture("services-kubeadm-131");
  auto k = p.step_with("--service-cluster-ip-range=10.48.0.0/12");
  ASSERT_GE(k, 0) << p.text();
  const auto& step = p.steps()[static_cast<std::size_t>(k)];
  EXPECT_NE(step.text.find("/etc/kubernetes/manifests/kube-apiserver.yaml"), std::string::npos);
  EXPECT_NE(step.text.find("networking.serviceSubnet"), std::string::npos);
  ASSERT_EQ(step.files.size(), 2u);
}

TEST(ServiceRunbooks, BothKubernetesAddressesStayInTheCertificateUntilRetirement) {
  auto r = typed(plan_fixture("services-kubeadm-131"));
  auto both = find_step<reissue_certificate>(r, [](const reissue_certificate& c) { return c.sans.size() == 2; });
  auto drop = find_step<reissue_certificate>(r, [](const reissue_certificate& c) { return !c.drop.empty(); });
  ASSERT_GE(both, 0);
  ASSERT_GE(drop, 0);
  // Only the route withdrawals of the connections that carried the old range come after it.
  for (auto k = static_cast<std::size_t>(drop) + 1; k < r.steps.size(); ++k) {
    EXPECT_TRUE(std::holds_alternative<withdraw_route>(r.steps[k].action)) << k;
  }
}

// Was: k3s got two steps setting --service-cidr on every server and restarting them
// (one for kube-apiserver, one for kube-controller-manager), each ending "then apply it
// the way this distribution applies configuration changes (the catalog does not say)".
TEST(ServiceRunbooks, OneSettingForBothComponentsIsOneStep) {
  auto p = plan_fixture("services-k3s");
  auto r = typed(p);
  std::size_t n = 0;
  for (const auto& s : r.steps) {
    const auto* f = std::get_if<set_flag>(&s.action);
    n += f != nullptr && f->flag == "--service-cluster-ip-range" ? 1 : 0;
  }
  EXPECT_EQ(n, 1u);
  EXPECT_EQ(p.text().find("applies configuration changes"), std::string::npos) << p.text();
  auto kubeadm = typed(plan_fixture("services-kubeadm-131"));
  std::size_t both = 0;
  for (const auto& s : kubeadm.steps) {
    const auto* f = std::get_if<set_flag>(&s.action);
    both += f != nullptr && f->flag == "--service-cluster-ip-range" ? 1 : 0;
  }
  EXPECT_EQ(both, 2u);  // two manifests, two steps
}

TEST(ServiceRunbooks, SecondaryFamilyMoveKeepsKubernetesDefaultAndDns) {
  auto r = typed(plan_fixture("services-dualstack-secondary-133"));
  EXPECT_EQ(count_of<reissue_certificate>(r), 0u);
  EXPECT_LT(find_step<recreate_services>(r, [](const recreate_services& s) { return s.which == service_selection::dns; }), 0);
  EXPECT_GE(find_step<recreate_services>(r, [](const recreate_services& s) {
              return s.which == service_selection::dual_stack_secondary;
            }),
            0);
}

TEST(ServiceRunbooks, ManagedAndOpenShiftServiceRangesAreReplacements) {
  for (const auto* name : {"eks", "gke", "aks", "openshift"}) {
    auto p = plan_fixture(std::string("services-") + name);
    ASSERT_FALSE(p.result.operations.empty()) << name;
    EXPECT_EQ(p.result.operations[0].kind, "replacement-cluster") << name;
  }
}

// Was: where the distribution renders kube-dns (k3s, kops), kubelets were
// pointed at the new DNS address right after the flags and kube-dns moved while
// running pods still used the old one (simulator: pod-nameserver). The setting
// that names the new address follows the move of kubernetes.default: one moment
// that cuts running pods off, and they restart next.
TEST(ServiceRunbooks, DistributionRenderedDnsMovesRightBeforeThePodsRestart) {
  for (const auto* name : {"k3s", "kops-129"}) {
    SCOPED_TRACE(name);
    auto p = plan_fixture(std::string("services-") + name);
    auto r = typed(p);
    auto kubernetes = find_step<recreate_services>(
        r, [](const recreate_services& a) { return a.which == service_selection::kubernetes_default; });
    auto kubelets = find_step<set_flag>(r, [](const set_flag& f) { return f.target == component::kubelet; });
    auto restart = find_step<restart_workloads>(
        r, [](const restart_workloads& a) { return a.which == workload_selection::all_pods; });
    ASSERT_GE(kubernetes, 0);
    EXPECT_EQ(kubelets, kubernetes + 1);
    // kops applies its spec at a step of its own, right after the edit (config-apply-separate).
    const bool applied = restart == kubelets + 2 && std::holds_alternative<apply_configuration>(r.steps[static_cast<std::size_t>(restart - 1)].action);
    EXPECT_TRUE(restart == kubelets + 1 || applied);
    EXPECT_LT(find_step<recreate_services>(r, [](const recreate_services& a) { return a.which == service_selection::dns; }), 0);
    auto failures = simulated_failures(p);
    EXPECT_TRUE(failures.empty()) << joined(failures);
  }
}

// Was: where the catalog does not know who renders kube-dns, kubelets were
// pointed at the new DNS address before kube-dns was there (simulator: dns).
// The operator finds out, and the temporary kube-dns-next serves the new address first.
TEST(ServiceRunbooks, UnknownDnsOwnerIsFoundOutAndTheNewAddressServesFirst) {
  auto p = plan_text("clusters:\n"
                     "  - {name: lab, distribution: kind, kubernetes: \"1.31\", network: 10.1.0.0/16, "
                     "pods: 10.2.0.0/16, services: 10.96.0.0/16, service_count: 10}\n"
                     "networks:\n  - {name: office, type: office, cidrs: [10.96.0.0/16]}\n"
                     "connections:\n  - {between: [lab, office], via: vpn}\n");
  ASSERT_EQ(p.result.operations.at(0).kind, "service-cidr-api");
  auto r = typed(p);
  auto ask = find_step<find_out>(r, [](const find_out& a) { return a.field == "distribution.dns_addon"; });
  auto next = find_step<apply_object>(r, [](const apply_object& a) { return a.object.name == "kube-dns-next"; });
  auto kubelets = find_step<set_flag>(r, [](const set_flag& f) { return f.target == component::kubelet; });
  ASSERT_GE(ask, 0);
  EXPECT_LT(ask, next);
  EXPECT_LT(next, kubelets);
  auto failures = simulated_failures(p);
  EXPECT_TRUE(failures.empty()) << joined(failures);
}

// Was: in the maintenance window the kubelets took the new DNS address only
// after every Service had left the old range, so for a moment the address they
// hand out lay outside the cluster's service range (simulator: fleet). They
// follow kubernetes.default, whose move already cuts running pods off.
TEST(ServiceRunbooks, TheWindowPointsKubeletsAtTheNewDnsAsSoonAsItMoves) {
  auto p = plan_fixture("services-kubeadm-127");
  ASSERT_EQ(p.result.operations.at(0).kind, "service-window");
  auto r = typed(p);
  auto dns = find_step<recreate_services>(r, [](const recreate_services& a) { return a.which == service_selection::dns; });
  auto kubernetes = find_step<recreate_services>(
      r, [](const recreate_services& a) { return a.which == service_selection::kubernetes_default; });
  auto kubelets = find_step<set_flag>(r, [](const set_flag& f) { return f.target == component::kubelet; });
  auto services = find_step<recreate_services>(
      r, [](const recreate_services& a) { return a.which == service_selection::cluster_ip; });
  ASSERT_GE(dns, 0);
  EXPECT_LT(dns, kubernetes);
  EXPECT_EQ(kubelets, kubernetes + 1);
  EXPECT_LT(kubelets, services);
  auto failures = simulated_failures(p);
  EXPECT_TRUE(failures.empty()) << joined(failures);
}

}  // namespace
}  // namespace cidrcheck
