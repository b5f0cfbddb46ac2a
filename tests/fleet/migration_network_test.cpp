// The network and replacement runbooks (lib/cidrcheck/fleet/migration_network.cpp)
// on the fixture fleets of tests/fixtures/fleets/runbook/network-*.yaml: the
// platform's words, the Adobe order for a self-managed cluster, and a
// replacement for what cannot move (docs/migration-facts.md, M17, I3, I11).

#include "runbook_fixture.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cidrcheck {
namespace {

using testing::expect_ordered;
using testing::plan_fixture;

auto count(const std::string& text, std::string_view word) -> std::size_t {
  std::size_t n = 0;
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
  return n;
}

TEST(MigrationNetwork, EveryBranchFollowsTheOrderingRule) {
  for (const char* name : {"network-new-vpc", "network-shared-aws", "network-shared-azure", "network-kops-replacement",
                           "network-gke-replacement", "network-renumber-onprem"}) {
    SCOPED_TRACE(name);
    expect_ordered(plan_fixture(name));
  }
}

// Issue 14's kops network claim (I3): a kops cluster is bound to its VPC; never "move the control plane".
TEST(MigrationNetwork, KopsNeverMovesControlPlane) {
  auto p = plan_fixture("network-kops-replacement");
  auto text = p.text();
  EXPECT_EQ(text.find("move the control plane"), std::string::npos);
  ASSERT_GE(p.step_with("bound to its VPC"), 0);
  bool cited = false;
  for (const auto& f : p.steps().at(0).facts) cited = cited || f.id == "kops-vpc-bound";
  EXPECT_TRUE(cited);
  auto spec = p.file("kops-cluster-spec.yaml");
  EXPECT_NE(spec.find("networkCIDR: "), std::string::npos);
  EXPECT_NE(spec.find("podCIDR: "), std::string::npos);
}

// eks-ipv6-assigned: EKS picks an IPv6 cluster's service range itself (inside fc00::/7), so the planned one is a
// placeholder; the runbook reads the real one back and re-checks before any traffic moves. IPv4 EKS has no such step.
TEST(MigrationNetwork, EksIpv6ReplacementReadsBackTheAssignedServiceRange) {
  auto p = plan_fixture("services-eks-ipv6");
  expect_ordered(p);
  ASSERT_EQ(p.result.operations.front().kind, "replacement-cluster");
  int read = p.step_with("fc00::/7"), connect = p.step_with("connect the replacement");
  ASSERT_GE(read, 0);
  EXPECT_LT(read, connect);
  const auto& step = p.steps().at(static_cast<std::size_t>(read));
  EXPECT_NE(step.text.find("serviceIpv6Cidr"), std::string::npos);
  EXPECT_NE(step.text.find("services fd69::10:0/108"), std::string::npos) << step.text;
  bool cited = false;
  for (const auto& f : step.facts) cited = cited || f.id == "eks-ipv6-assigned";
  EXPECT_TRUE(cited);
  EXPECT_LT(plan_fixture("services-eks").step_with("fc00::/7"), 0);
}

// I11 and M17: GKE in GCP words, no AWS words; a managed cluster's runbook starts with the replacement, not with a
// new network and peering.
TEST(MigrationNetwork, GkeSpeaksGcp) {
  auto p = plan_fixture("network-gke-replacement");
  auto text = p.text();
  EXPECT_NE(text.find("VPC Network Peering"), std::string::npos);
  EXPECT_EQ(text.find("VPC peering"), std::string::npos);
  EXPECT_EQ(p.step_with("replacement"), 0);
}

TEST(MigrationNetwork, AzureSpeaksAzure) {
  auto p = plan_fixture("network-shared-azure");
  auto text = p.text();
  EXPECT_NE(text.find("virtual network (VNet)"), std::string::npos);
  EXPECT_NE(text.find("VNet peering"), std::string::npos);
  EXPECT_EQ(text.find("VPC"), std::string::npos);
  EXPECT_NE(p.file("terraform-network.tf").find("azurerm_virtual_network"), std::string::npos);
}

// The cloud of a shared VPC is told by an EKS cluster in it: AWS words, aws_vpc, and EKS rebuilt, not moved.
TEST(MigrationNetwork, SharedVpcWithEksSpeaksAws) {
  auto p = plan_fixture("network-shared-aws");
  auto text = p.text();
  EXPECT_NE(text.find("VPC peering"), std::string::npos);
  EXPECT_NE(p.file("terraform-network.tf").find("resource \"aws_vpc\""), std::string::npos);
  int eks = p.step_with("shop (eks)");
  ASSERT_GE(eks, 0);
  EXPECT_NE(p.steps()[eks].text.find("replacement"), std::string::npos);
}

// A cloud that cannot be told is not guessed.
TEST(MigrationNetwork, UnknownCloudIsNotGuessed) {
  auto p = plan_fixture("network-new-vpc");
  auto text = p.text();
  EXPECT_GE(count(text, "network (VPC, VNet or subnet)"), 2u);
  EXPECT_EQ(text.find("VPC peering"), std::string::npos);
  EXPECT_EQ(p.file("terraform-network.tf"), "");
  // The Adobe order: new network, joined, new nodes, traffic, control plane, old network retired.
  int created = p.step_with("create the new"), joined = p.step_with("join the old"), nodes = p.step_with("new node groups"),
      control = p.step_with("control plane one member at a time");
  EXPECT_LT(created, joined);
  EXPECT_LT(joined, nodes);
  EXPECT_LT(nodes, control);
}

TEST(MigrationNetwork, OnPremisesUsesRoutesNotPeering) {
  auto p = plan_fixture("network-renumber-onprem");
  auto text = p.text();
  EXPECT_EQ(text.find("VPC"), std::string::npos);
  EXPECT_EQ(text.find("peering"), std::string::npos);
  EXPECT_NE(p.steps().back().text.find("DHCP"), std::string::npos);
}

}  // namespace
}  // namespace cidrcheck
