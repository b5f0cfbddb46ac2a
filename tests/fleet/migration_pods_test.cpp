// The pod-range rows (lib/cidrcheck/fleet/operation_pods.cpp) on the fixture
// fleets of tests/fixtures/fleets/runbook/pods-*.yaml and inline fleets: the
// ordering rule, the row chosen by the planner's kind whatever the CNI, and one
// test per error of issue 24 item 5 about Calico, Cilium, kube-controller-manager
// node IPAM, kubeadm and k3s pod moves. Each names the output before the rewrite
// that it fails on.

#include "runbook_fixture.hpp"

#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/fleet/simulator.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <gtest/gtest.h>

#include <string>

namespace cidrcheck {
namespace {

using testing::plan_fixture;
using testing::plan_text;
using testing::planned_runbooks;

auto typed(const planned_runbooks& p, std::size_t k = 0) -> runbook {
  return plan_runbooks(p.model, p.result, builtin_catalog()).at(k);
}

template <class Action, class Pred>
auto find_step(const runbook& r, Pred pred) -> int {
  for (std::size_t k = 0; k < r.steps.size(); ++k) {
    if (const auto* a = std::get_if<Action>(&r.steps[k].action); a && pred(*a)) return static_cast<int>(k);
  }
  return -1;
}

template <class Action>
auto first(const runbook& r) -> int {
  return find_step<Action>(r, [](const Action&) { return true; });
}

// The simulator's verdict on the typed runbook of operation k.
auto simulated(const planned_runbooks& p, std::size_t k = 0) -> simulation_result {
  auto planned = apply_plan(p.model, p.result);
  simulation_context context;
  context.original = &p.model;
  context.planned = &planned;
  context.catalog = &builtin_catalog();
  return simulate_runbook(context, typed(p, k));
}

auto failures_of(const simulation_result& r) -> std::string {
  std::string out;
  for (const auto& f : r.failures) out += to_string(f, r.steps) + "\n";
  return out;
}

// A cluster of `distribution` with flannel whose pod range a connection needs: kcm-node-ipam.
auto flannel_move(const std::string& distribution) -> planned_runbooks {
  return plan_text("clusters:\n"
                   "  - {name: shop, distribution: " + distribution + ", kubernetes: \"1.30\", cni: flannel, nodes: 5, "
                   "network: 192.168.50.0/24}\n"
                   "networks:\n  - {name: office, type: office, cidrs: [10.42.0.0/16]}\n"
                   "connections:\n  - [shop, office]\n");
}

auto calico(const std::string& ipam) -> planned_runbooks {
  return plan_text("clusters:\n"
                   "  - {name: a, distribution: kubeadm, kubernetes: \"1.31\", cni: calico, " +
                   (ipam.empty() ? std::string() : "ipam: " + ipam + ", ") +
                   "nodes: 10, network: 10.1.0.0/16, pods: 10.244.0.0/16, services: 10.96.0.0/16}\n"
                   "networks:\n  - {name: office, type: office, cidrs: [10.244.0.0/16]}\n"
                   "connections:\n  - [a, office]\n");
}

TEST(PodRunbooks, OrderingRuleOnEveryPodFixture) {
  for (const auto* name : {"calico-kops", "calico-kubeadm", "cilium-clusterpool", "cilium-multipool",
                           "eks-custom-networking", "kcm-k3s", "kcm-kubeadm", "add-calico", "add-cilium",
                           "gke-additional", "aks-expand"}) {
    SCOPED_TRACE(name);
    testing::expect_ordered(plan_fixture(std::string("pods-") + name));
  }
}

// Was: a cluster whose IPAM the catalog does not know (no CNI named, a delegated
// plugin) got the node-IPAM runbook with nothing asking whether its pods take
// Node podCIDRs at all (kcm-moves-node-pods): the runbook now asks before the drain.
TEST(PodRunbooks, NodeIpamAsksFirstWhereTheIpamIsUnknown) {
  for (const char* cni : {"", ", cni: cilium, ipam: delegated-plugin"}) {
    SCOPED_TRACE(cni);
    auto p = plan_text(std::string("clusters:\n  - {name: lab, distribution: kubeadm, kubernetes: \"1.30\"") + cni +
                       ", nodes: 4, network: 10.70.0.0/16, pods: 10.244.0.0/16}\n"
                       "networks:\n  - {name: office, type: office, cidrs: [10.244.0.0/16]}\n"
                       "connections:\n  - [lab, office]\n");
    ASSERT_EQ(p.result.operations.size(), 1u);
    ASSERT_EQ(p.result.operations[0].kind, "kcm-node-ipam");
    auto r = typed(p);
    const int ask = find_step<find_out>(r, [](const find_out& f) { return f.field == "ipam.addresses"; });
    ASSERT_GE(ask, 0);
    EXPECT_LT(ask, first<drain_nodes>(r));
    EXPECT_EQ(r.steps[static_cast<std::size_t>(first<drain_nodes>(r))].needs, r.steps[static_cast<std::size_t>(ask)].makes);
    EXPECT_TRUE(simulated(p).passed()) << failures_of(simulated(p));
  }
  // Flannel, named or k3s's own (dist-k3s-cni), is known: nothing to ask.
  auto asks = [](const planned_runbooks& p) {
    return find_step<find_out>(typed(p), [](const find_out& f) { return f.field == "ipam.addresses"; }) >= 0;
  };
  EXPECT_FALSE(asks(flannel_move("k3s")));
  EXPECT_FALSE(asks(plan_fixture("pods-kcm-k3s")));  // names no CNI
  EXPECT_FALSE(asks(plan_fixture("pods-kcm-kubeadm")));
}

// Was: a Calico cluster with `ipam: host-local` was priced kcm-node-ipam but got Calico pool-swap steps.
TEST(PodRunbooks, CalicoHostLocalGetsTheNodeIpamRunbookItIsPricedFor) {
  auto p = calico("host-local");
  ASSERT_EQ(p.result.operations.size(), 1u);
  EXPECT_EQ(p.result.operations[0].kind, "kcm-node-ipam");
  auto r = typed(p);
  EXPECT_LT(find_step<apply_object>(r, [](const apply_object& a) { return a.object.kind == "IPPool"; }), 0);
  EXPECT_GE(first<remove_nodes>(r), 0);
  auto swap = typed(calico(""));
  EXPECT_EQ(swap.kind, "calico-ippool-swap");
  EXPECT_GE(find_step<apply_object>(swap, [](const apply_object& a) { return a.object.kind == "IPPool"; }), 0);
}

// Was: ippool-new.yaml named natOutgoing only, so the new pool got ipipMode/vxlanMode Never.
TEST(PodRunbooks, TheNewPoolCarriesEncapsulationAndIsCheckedAgainstTheOld) {
  auto p = plan_fixture("pods-calico-kops");
  bool found = false;
  for (const auto& f : p.files) {
    if (f.path.find("-ippool-pool-") == std::string::npos) continue;
    found = true;
    EXPECT_NE(f.text.find("ipipMode:"), std::string::npos) << f.text;
    EXPECT_NE(f.text.find("vxlanMode:"), std::string::npos) << f.text;
    EXPECT_NE(f.text.find("natOutgoing:"), std::string::npos) << f.text;
  }
  EXPECT_TRUE(found);
  EXPECT_NE(p.text().find("ipipMode, vxlanMode"), std::string::npos) << p.text();
}

// Was: ippool-old-disabled.yaml, a short manifest that reset the old pool's fields; and `kubectl delete ippool`.
TEST(PodRunbooks, TheOldPoolIsPatchedAndDeletedWithCalicoctl) {
  auto p = plan_fixture("pods-calico-kops");
  std::string commands;
  for (const auto& s : p.steps()) {
    for (const auto& c : s.commands) commands += c + "\n";
  }
  EXPECT_NE(commands.find("calicoctl patch ippool \"$OLD_IPPOOL\""), std::string::npos) << commands;
  EXPECT_NE(commands.find("calicoctl delete ippool \"$OLD_IPPOOL\""), std::string::npos) << commands;
  EXPECT_EQ(commands.find("kubectl delete ippool"), std::string::npos) << commands;
  for (const auto& f : p.files) {
    if (f.path.ends_with("/runbook.md")) continue;  // its facts quote "never crd.projectcalico.org"
    EXPECT_EQ(f.text.find("crd.projectcalico.org"), std::string::npos) << f.path;
  }
  for (const auto& f : p.files) EXPECT_EQ(f.path.find("old-disabled"), std::string::npos) << f.path;
}

// Was: kube-proxy's clusterCIDR never changed in a Calico swap.
TEST(PodRunbooks, KubeProxyHoldsTheNewPoolBeforeItServes) {
  auto r = typed(calico(""));
  auto proxy = find_step<set_flag>(r, [](const set_flag& f) { return f.target == component::kube_proxy; });
  auto pool = find_step<apply_object>(r, [](const apply_object& a) { return a.object.kind == "IPPool"; });
  ASSERT_GE(proxy, 0);
  ASSERT_GE(pool, 0);
  EXPECT_LT(proxy, pool);
}

// Was: CoreDNS scaled up in the workload step, after the kops rolling update.
TEST(PodRunbooks, CorednsScaledUpBeforeAnyRollOrRestart) {
  auto p = plan_fixture("pods-calico-kops");
  auto r = typed(p);
  auto scale = find_step<restart_workloads>(r, [](const restart_workloads& w) { return !w.scale_up_first.empty(); });
  ASSERT_GE(scale, 0);
  for (std::size_t k = 0; k < static_cast<std::size_t>(scale); ++k) {
    for (const auto& c : p.steps()[k].commands) EXPECT_EQ(c.find("rolling-update"), std::string::npos) << c;
    EXPECT_FALSE(std::holds_alternative<roll_nodes>(r.steps[k].action));
  }
}

// Was: the --cluster-cidr flag file was applied by the first step, before the old Nodes were gone.
TEST(PodRunbooks, TheClusterCidrFileBelongsToTheStepAfterTheOldNodesAreGone) {
  auto p = plan_fixture("pods-kcm-kubeadm");
  auto r = typed(p);
  auto removed = first<remove_nodes>(r);
  auto flag = find_step<set_flag>(r, [](const set_flag& f) { return f.flag == "--cluster-cidr"; });
  ASSERT_GE(removed, 0);
  ASSERT_GT(flag, removed);
  for (std::size_t k = 0; k < p.steps().size(); ++k) {
    for (const auto& name : p.steps()[k].files) {
      if (name.find("kube-controller-manager") != std::string::npos) {
        EXPECT_EQ(static_cast<int>(k), flag) << name;
      }
    }
  }
}

// Was: re-registered control-plane nodes kept no label or taint.
TEST(PodRunbooks, ReRegisteredControlPlaneNodesGetTheirLabelAndTaintBack) {
  auto p = plan_fixture("pods-kcm-kubeadm");
  bool found = false;
  for (const auto& s : p.steps()) {
    for (const auto& c : s.commands) found = found || c.find("kubeadm init phase mark-control-plane --node-name") == 0;
  }
  EXPECT_TRUE(found) << p.text();
}

// Was: a k3s cluster with flannel got a kube-flannel-cfg step, and "stop its kubelet" on every node.
TEST(PodRunbooks, K3sHasNoFlannelConfigMapAndServersDoNotStopTheirKubelet) {
  auto p = flannel_move("k3s");
  ASSERT_EQ(p.result.operations.at(0).kind, "kcm-node-ipam");
  auto text = p.text();
  EXPECT_EQ(text.find("kube-flannel-cfg"), std::string::npos) << text;
  for (const auto& s : p.steps()) {
    for (const auto& c : s.commands) EXPECT_EQ(c.find("systemctl stop kubelet"), std::string::npos) << c;
  }
}

// Was: the node-IPAM window stopped every node's kubelet, k3s servers included,
// which stopped their API servers (simulator: kubelet-in-server). The servers'
// Node objects go with the servers running, and they come back first.
TEST(PodRunbooks, ServersKeepRunningThroughTheNodeIpamWindow) {
  for (const auto* distribution : {"k3s", "rke2"}) {
    SCOPED_TRACE(distribution);
    auto r = typed(flannel_move(distribution));
    for (const auto& s : r.steps) {
      const auto* remove = std::get_if<remove_nodes>(&s.action);
      if (remove == nullptr || remove->nodes.which == node_selection::role::workers) continue;
      EXPECT_TRUE(remove->keep_kubelets) << "a step stops the servers' kubelets";
    }
    auto servers = find_step<remove_nodes>(r, [](const remove_nodes& a) { return a.keep_kubelets; });
    auto flag = find_step<set_flag>(r, [](const set_flag& f) { return f.flag == "--cluster-cidr"; });
    auto back = find_step<register_nodes>(
        r, [](const register_nodes& a) { return a.nodes.which == node_selection::role::control_plane; });
    auto workers = find_step<register_nodes>(
        r, [](const register_nodes& a) { return a.nodes.which == node_selection::role::workers; });
    ASSERT_GE(servers, 0);
    EXPECT_LT(servers, flag);
    EXPECT_LT(flag, back);
    EXPECT_LT(back, workers);
  }
  // Where the profile knows the kubelet is a process of its own, every node leaves as before.
  auto kubeadm = typed(plan_fixture("pods-kcm-kubeadm"));
  EXPECT_GE(find_step<remove_nodes>(kubeadm, [](const remove_nodes& a) {
              return a.nodes.which == node_selection::role::all && !a.keep_kubelets;
            }), 0);
}

// Was: on k3s the window stopped the servers' API servers, and on RKE2 flannel
// kept its old Network and refused the nodes' new podCIDRs (simulator:
// kubelet-in-server, flannel-network). The profiles place flannel's Network on
// --cluster-cidr, so the flag step carries it.
TEST(PodRunbooks, FlannelOnK3sAndRke2FollowsTheClusterCidrAndTheWindowPasses) {
  for (const auto* distribution : {"k3s", "rke2"}) {
    SCOPED_TRACE(distribution);
    auto p = flannel_move(distribution);
    const auto* d = builtin_catalog().profile_of(p.model.owners.at(0)).distribution;
    ASSERT_NE(d, nullptr);
    const auto* place = d->place(component::cni_agent, "net-conf.json Network");
    ASSERT_NE(place, nullptr);
    EXPECT_EQ(place->field, d->place(component::kube_controller_manager, "--cluster-cidr")->field);
    auto result = simulated(p);
    EXPECT_TRUE(result.passed()) << failures_of(result);
  }
}

// Was: a Calico pool added beside the old one left kube-proxy's clusterCIDR
// holding only the old pool (simulator: kube-proxy-cluster-cidr). It takes one
// CIDR per family (kube-proxy-one-cidr), set before the new pool serves.
TEST(PodRunbooks, AnAddedCalicoPoolIsInKubeProxysClusterCidrFirst) {
  auto p = plan_fixture("pods-add-calico");
  ASSERT_EQ(p.result.operations.at(0).kind, "add-pod-range");
  auto r = typed(p);
  auto proxy = find_step<set_flag>(r, [](const set_flag& f) { return f.target == component::kube_proxy; });
  auto pool = find_step<apply_object>(r, [](const apply_object& a) { return a.object.kind == "IPPool"; });
  ASSERT_GE(proxy, 0);
  ASSERT_GE(pool, 0);
  EXPECT_LT(proxy, pool);
  const auto& value = std::get<std::vector<prefix>>(std::get<set_flag>(r.steps[proxy].action).value);
  ASSERT_EQ(value.size(), 1u);
  auto applied = apply_plan(p.model, p.result);
  for (const auto* f : {&p.model, &applied}) {
    for (const auto& range : f->ranges) {
      if (range.role != range_role::pods) continue;
      EXPECT_TRUE(range.cidr.subnet_of(value.front())) << range.cidr.to_string();
    }
  }
  auto result = simulated(p);
  EXPECT_TRUE(result.passed()) << failures_of(result);
}

// Was: the step after a range is added checked pod addresses in it, which no
// pod has before pods start or node pools use it (simulator: step-check, and
// operator-reads-pools for Cilium). The check looks at the pools.
TEST(PodRunbooks, AnAddedRangeIsCheckedInThePoolsNotInPodAddresses) {
  for (const auto* name : {"add-calico", "add-cilium", "gke-additional"}) {
    SCOPED_TRACE(name);
    auto p = plan_fixture(std::string("pods-") + name);
    auto r = typed(p);
    bool pools = false;
    for (const auto& s : r.steps) {
      for (const auto& c : s.checks) {
        EXPECT_FALSE(c.what == observable::pod_addresses && c.must == expectation::includes);
        pools = pools || (c.what == observable::ip_pools && c.must == expectation::includes);
      }
    }
    EXPECT_TRUE(pools);
    auto result = simulated(p);
    for (const auto& f : result.failures) EXPECT_NE(f.check, simulation_check::step_check) << failures_of(result);
  }
}

// Was: the cluster-pool migration named no Cilium release.
TEST(PodRunbooks, ClusterPoolMigrationNeedsCilium120) {
  auto p = plan_fixture("pods-cilium-clusterpool");
  EXPECT_NE(p.text().find("Cilium 1.20.0 or later"), std::string::npos) << p.text();
}

// Was: the multi-pool change drained nodes without restarting the operator first.
TEST(PodRunbooks, MultiPoolRestartsTheOperatorBeforeNodesAreDrained) {
  auto r = typed(plan_fixture("pods-cilium-multipool"));
  auto op = find_step<restart_workloads>(r, [](const restart_workloads& w) {
    return w.which == workload_selection::component && w.target == component::cni_operator;
  });
  auto roll = first<roll_nodes>(r);
  ASSERT_GE(op, 0);
  ASSERT_GE(roll, 0);
  EXPECT_LT(op, roll);
}

TEST(PodRunbooks, NoRowNamesTheOtherCnisObjects) {
  // The row comes from the operation kind, the objects from the IPAM profile.
  auto cilium = plan_fixture("pods-cilium-multipool");
  for (const auto& f : cilium.files) EXPECT_EQ(f.text.find("IPPool\n"), std::string::npos) << f.path;
  auto kcm = plan_fixture("pods-kcm-kubeadm");
  for (const auto& f : kcm.files) EXPECT_EQ(f.text.find("CiliumPodIPPool"), std::string::npos) << f.path;
}

// An AKS Overlay cluster short of pod space: its pod CIDR grows in place into
// the prefix that contains it (aks-pod-expand), not a replacement cluster.
// Was: a replacement of the cluster, cost 40, every pod and Service moved.
TEST(PodRunbooks, AksOverlayShortOfPodSpaceGrowsItsPodCidrInPlace) {
  auto p = plan_fixture("pods-aks-expand");
  ASSERT_EQ(p.result.operations.size(), 1u);
  EXPECT_EQ(p.result.operations[0].kind, "aks-overlay-pod-expand");
  ASSERT_EQ(p.result.changes.size(), 1u);
  const auto& c = p.result.changes[0];
  ASSERT_TRUE(c.range.has_value());
  EXPECT_EQ(c.from, prefix::parse("10.244.0.0/18"));
  EXPECT_EQ(c.to, prefix::parse("10.244.0.0/17"));  // 128 node /24s for 100 nodes
  EXPECT_TRUE(c.transition_safe);  // it overlaps only the range it grows
  auto r = typed(p);
  auto expand = find_step<change_resource>(r, [](const change_resource& a) { return a.action == resource_action::expand; });
  ASSERT_GE(expand, 0);
  EXPECT_LT(expand, first<verify>(r));
  EXPECT_EQ(first<drain_nodes>(r), -1);  // nothing moves: no node is drained
  auto result = simulated(p);
  EXPECT_TRUE(result.passed()) << failures_of(result);
}

// The simulator holds a runbook to the fact: the nodes are checked after the
// update, and an "expansion" that does not contain the old range is refused.
TEST(PodRunbooks, AnExpansionIsCheckedAfterItAndMustContainTheOldRange) {
  auto p = plan_fixture("pods-aks-expand");
  auto planned = apply_plan(p.model, p.result);
  simulation_context context;
  context.original = &p.model;
  context.planned = &planned;
  context.catalog = &builtin_catalog();
  auto r = typed(p);
  auto expand = static_cast<std::size_t>(first<change_resource>(r));
  auto check = static_cast<std::size_t>(first<verify>(r));
  auto early = r;
  std::swap(early.steps[expand], early.steps[check]);
  early.steps[expand].needs.clear();
  auto result = simulate_runbook(context, early);
  ASSERT_FALSE(result.passed());
  EXPECT_EQ(result.failures.front().check, simulation_check::step_check) << failures_of(result);

  auto beside = r;
  std::get<change_resource>(beside.steps[expand].action).ranges = {prefix::parse("10.245.0.0/17")};
  result = simulate_runbook(context, beside);
  ASSERT_FALSE(result.passed());
  EXPECT_EQ(result.failures.front().rule, simulation_rule::pod_range_superset) << failures_of(result);
}

// The expansion is offered only where the fact allows it and the space is free:
// not where the grown prefix would meet another range, not for an IPv6 pod
// range, and not for an AKS cluster whose network plugin the fleet does not name.
TEST(PodRunbooks, NoExpansionWhereTheGrownPrefixIsTakenOrTheFactDoesNotAllowIt) {
  auto kind = [](const std::string& yaml) {
    auto p = plan_text(yaml);
    return p.result.operations.empty() ? std::string() : p.result.operations[0].kind;
  };
  const std::string aks = "clusters:\n  - {name: pay, distribution: aks, kubernetes: \"1.31\", nodes: 100, "
                          "network: 10.30.0.0/16, services: 10.31.0.0/16";
  EXPECT_EQ(kind(aks + ", cni: azure-cni, pods: 10.244.0.0/18}\n"), "aks-overlay-pod-expand");
  EXPECT_EQ(kind(aks + ", cni: azure-cni, pods: 10.244.0.0/18}\n"
                       "networks:\n  - {name: lab, type: office, cidrs: [10.244.64.0/24]}\n"),
            "replacement-cluster");
  EXPECT_EQ(kind(aks + ", pods: 10.244.0.0/18}\n"), "replacement-cluster");
  EXPECT_EQ(kind("clusters:\n  - {name: pay, distribution: aks, cni: azure-cni, kubernetes: \"1.31\", nodes: 100, "
                 "block_size_v6: 120, network: 10.30.0.0/16, services: [10.31.0.0/16, fd00:31::/108], "
                 "pods: [10.244.0.0/16, fd00:244::/114]}\n"),
            "replacement-cluster");
}

}  // namespace
}  // namespace cidrcheck
