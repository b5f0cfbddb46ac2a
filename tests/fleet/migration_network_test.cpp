// The network rows (lib/cidrcheck/fleet/operation_network.cpp) and the route
// steps every operation gets: the ordering rule, the cloud's words, and one
// test per error of issue 24 item 5 about replacements and routes. Each names
// the output before the rewrite that it fails on.

#include "runbook_fixture.hpp"

#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace cidrcheck {
namespace {

using testing::plan_fixture;
using testing::plan_text;
using testing::planned_runbooks;

auto typed(const planned_runbooks& p, std::size_t k = 0) -> runbook {
  return plan_runbooks(p.model, p.result, builtin_catalog()).at(k);
}

TEST(NetworkRunbooks, OrderingRuleOnEveryNetworkFixture) {
  for (const auto* name : {"gke-replacement", "kops-replacement", "new-vpc", "renumber-onprem", "shared-aws",
                           "shared-azure"}) {
    SCOPED_TRACE(name);
    testing::expect_ordered(plan_fixture(std::string("network-") + name));
  }
}

// Was: the kops replacement spec had no subnets, which kops refuses.
TEST(NetworkRunbooks, AKopsReplacementSpecHasSubnetsInsideItsNetwork) {
  auto p = plan_fixture("network-kops-replacement");
  bool spec = false;
  for (const auto& f : p.files) {
    if (!f.path.ends_with("-cluster-spec.yaml")) continue;
    spec = true;
    EXPECT_NE(f.text.find("subnets:"), std::string::npos) << f.text;
    EXPECT_NE(f.text.find("networkCIDR:"), std::string::npos) << f.text;
    EXPECT_NE(f.text.find("nonMasqueradeCIDR:"), std::string::npos) << f.text;
  }
  EXPECT_TRUE(spec);
}

// Was: a cluster of unknown distribution moving to a new VPC got a replacement
// "because it cannot move to another network in place", which the catalog does
// not know and which the Adobe story's self-managed cluster disproves: it asks
// first, then moves in place; a kops cluster (kops-vpc-bound) is replaced
// (by the planner's replacement-cluster: the catalog offers kops no new-vpc).
TEST(NetworkRunbooks, OnlyAClusterBoundToItsNetworkIsReplacedByANewVpc) {
  const std::string fleet_of = "clusters:\n"
                               "  - {name: a, distribution: DIST, kubernetes: \"1.30\", network: 10.104.0.0/16, "
                               "pods: 10.160.0.0/16, services: 10.161.0.0/20, nodes: 20}\n"
                               "  - {name: b, distribution: generic, kubernetes: \"1.30\", network: 10.40.0.0/16, "
                               "pods: 10.96.0.0/11, services: 10.32.0.0/20}\n"
                               "connections:\n  - {between: [a, b], via: peering, routes: [network, pods]}\n"
                               "plan:\n  pin: [b]\n";
  auto book_of = [&](const std::string& dist) {
    std::string text = fleet_of;
    text.replace(text.find("DIST"), 4, dist);
    auto p = plan_text(text);
    EXPECT_EQ(p.result.operations.size(), 1u) << dist;
    return typed(p);
  };
  auto has = [](const runbook& r, auto pred) { return std::any_of(r.steps.begin(), r.steps.end(), pred); };
  auto asks = [](const runbook_step& s) {
    const auto* f = std::get_if<find_out>(&s.action);
    return f != nullptr && f->field == "distribution.moves_network";
  };
  auto builds_cluster = [](const runbook_step& s) {
    const auto* c = std::get_if<change_resource>(&s.action);
    return c != nullptr && c->what == resource_kind::cluster && c->action == resource_action::create;
  };
  auto generic = book_of("generic");
  EXPECT_EQ(generic.kind, "new-vpc");
  EXPECT_TRUE(has(generic, asks));
  EXPECT_FALSE(has(generic, builds_cluster));
  auto kops = book_of("kops");
  EXPECT_FALSE(has(kops, asks));
  EXPECT_TRUE(has(kops, builds_cluster));
}

// Was: an EKS custom-networking replacement said nothing of where its pod range lies.
TEST(NetworkRunbooks, AnEksReplacementsPodRangeLiesInAVpcBlock) {
  auto p = plan_text("clusters:\n"
                     "  - {name: e, distribution: eks, kubernetes: \"1.31\", cni: vpc-cni, ipam: custom-networking, "
                     "network: 10.1.0.0/16, pods: 100.64.0.0/16, services: 10.100.0.0/16}\n"
                     "  - {name: f, distribution: eks, kubernetes: \"1.31\", network: 10.3.0.0/16, services: 10.100.0.0/16, "
                     "nodes: 100}\n"
                     "connections:\n  - {between: [e, f], routes: [services]}\n");
  bool found = false;
  for (std::size_t k = 0; k < p.result.operations.size(); ++k) {
    if (p.result.operations[k].kind != "replacement-cluster") continue;
    const auto& o = p.model.owners[p.result.operations[k].owners.front()];
    if (o.name != "e") continue;
    found = true;
    EXPECT_NE(p.text(k).find("CIDR block associated with its VPC"), std::string::npos) << p.text(k);
  }
  EXPECT_TRUE(found);
}

// Was: only Tailscale routes declared with `routes:` followed a moved range; a VPN
// pushing `services` or a tunnel carrying `pods` got no route step.
TEST(NetworkRunbooks, EveryConnectionThatCarriesAMovedRangeGetsItsRoutes) {
  for (const auto* via : {"vpn", "ipsec", "peering", "transit"}) {
    auto p = plan_text(std::string("clusters:\n"
                                   "  - {name: a, distribution: kubeadm, kubernetes: \"1.33\", network: 10.1.0.0/16, "
                                   "pods: 10.2.0.0/16, services: 10.96.0.0/16}\n"
                                   "networks:\n  - {name: office, type: office, cidrs: [10.96.0.0/16]}\n"
                                   "connections:\n  - {between: [a, office], via: ") + via + ", routes: [services]}\n");
    auto r = typed(p);
    ASSERT_FALSE(r.steps.empty()) << via;
    EXPECT_TRUE(std::holds_alternative<advertise_route>(r.steps.front().action)) << via;
    EXPECT_TRUE(std::holds_alternative<withdraw_route>(r.steps.back().action)) << via;
    auto needs = r.steps.back().needs;
    EXPECT_NE(std::find(needs.begin(), needs.end(), "old-range-unused"), needs.end()) << via;
  }
}

TEST(NetworkRunbooks, TheCloudsWordsComeFromTheProfile) {
  auto gke = plan_fixture("network-gke-replacement");
  EXPECT_EQ(gke.text().find("VPC peering"), std::string::npos);
  auto azure = plan_fixture("network-shared-azure");
  EXPECT_NE(azure.text().find("virtual network (VNet)"), std::string::npos) << azure.text();
  EXPECT_NE(azure.text().find("VNet peering"), std::string::npos) << azure.text();
  auto aws = plan_fixture("network-shared-aws");
  EXPECT_NE(aws.text().find("VPC peering"), std::string::npos) << aws.text();
}

TEST(NetworkRunbooks, AClusterThatCannotMoveItsNetworkIsReplaced) {
  auto r = typed(plan_fixture("network-shared-aws"));
  bool replaced = false;
  for (const auto& s : r.steps) {
    if (const auto* c = std::get_if<change_resource>(&s.action)) replaced = replaced || c->what == resource_kind::cluster;
  }
  EXPECT_TRUE(replaced);
}

}  // namespace
}  // namespace cidrcheck
