// The aws-eks importer: `aws eks describe-cluster` output.
// Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <cidrcheck/fleet/check.hpp>

#include <gtest/gtest.h>

namespace cidrcheck::test {
namespace {

// aws eks describe-cluster
TEST(ImportAwsEks, ServiceRangeAndNoPodRangeOfItsOwn) {
  auto r = load({{import_kind::aws_eks, "aws-eks/my-eks-cluster.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  const auto& o = owner_of(r, "my-eks-cluster");
  EXPECT_EQ(o.type, "eks");
  EXPECT_EQ(o.kubernetes, (kube_version{1, 29}));
  EXPECT_EQ(cidrs(r, "my-eks-cluster", range_role::services), (v{"10.100.0.0/16"}));
  // The VPC CNI: pods take VPC addresses, and no default fills pods in.
  EXPECT_TRUE(o.declared.has(range_role::pods));
  EXPECT_EQ(cidrs(r, "my-eks-cluster", range_role::pods), v{});
  // Its VPC is in no source: a warning at the vpcId.
  ASSERT_EQ(codes(r), (v{"unresolved-link"}));
  EXPECT_EQ(r.diagnostics.front().where.line, 19u);
}

TEST(ImportAwsEks, ItsVpcBecomesItsNetwork) {
  auto r = load({{import_kind::aws_eks, "aws-eks/my-eks-cluster.json"}, {import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "my-eks-cluster", range_role::network), (v{"192.168.0.0/16", "2600:1f18:2c41:7e00::/56"}));
  EXPECT_FALSE(r.value.find_owner("vpc-0012b8e1cc0abb17d").has_value());
  // The network keeps the VPC export's positions.
  EXPECT_EQ(range_at(r, "my-eks-cluster", "192.168.0.0/16")->where.file, fixtures + "aws-vpcs/vpcs.json");
  // Only the notes of the VPC export's blocks not in use.
  EXPECT_EQ(codes(r), (v{"import-inactive", "import-inactive"})) << printed(r);
}

TEST(ImportAwsEks, ItRunsInTheVpcItsExportNames) {
  auto r = load({{import_kind::aws_eks, "aws-eks/my-eks-cluster.json"}});
  EXPECT_EQ(owner_of(r, "my-eks-cluster").runs_in, "vpc-0012b8e1cc0abb17d");
  EXPECT_EQ(owner_of(r, "my-eks-cluster").runs_in_where.line, 19u);  // resourcesVpcConfig.vpcId
}

TEST(ImportAwsEks, AnotherVpcOverlappingItsVpcIsNotHidden) {
  // The cluster's network is its VPC's 192.168.0.0/16 (aws-vpcs). b92d7c3 placed
  // the cluster in the first VPC holding that network, other-vpc here, and
  // reported nothing; it runs in its own VPC, so the overlap is a finding.
  auto r = load({{import_kind::aws_eks, "aws-eks/my-eks-cluster.json"}, {import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}},
                "networks: [{name: other-vpc, type: vpc, cidrs: [192.168.0.0/16]}]\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  auto cluster = *r.value.find_owner("my-eks-cluster"), other = *r.value.find_owner("other-vpc");
  std::vector<std::string> pairs;
  for (const auto& x : check(r.value, builtin_catalog())) {
    if (x.id != rule::latent_overlap && x.id != rule::overlap) continue;
    auto a = r.value.ranges[x.ranges[0]].owner, b = r.value.ranges[x.ranges[1]].owner;
    if (std::minmax(a, b) == std::minmax(cluster, other)) pairs.push_back(x.message);
  }
  EXPECT_EQ(pairs.size(), 1u) << printed(r);
}

TEST(ImportAwsEks, TwoClustersOfOneVpcShareItsSpace) {
  // Both take the VPC's blocks as their network and both run in it (b92d7c3:
  // their equal networks were a latent-overlap, an overlap once connected).
  fleet_loader loader(builtin_catalog());
  loader.add_import(import_kind::aws_eks, fixtures + "aws-eks/my-eks-cluster.json");
  loader.add_import(import_kind::aws_vpcs, fixtures + "aws-vpcs/vpcs.json");
  loader.add_import_text(import_kind::aws_eks, R"({"cluster": {"name": "second", "version": "1.29",
    "resourcesVpcConfig": {"vpcId": "vpc-0012b8e1cc0abb17d"},
    "kubernetesNetworkConfig": {"serviceIpv4Cidr": "10.101.0.0/16"}}})", "second.json");
  loader.add_text("connections: [{between: [my-eks-cluster, second], via: mesh}]\n", "fleet.yaml");
  auto r = loader.finish();
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "second", range_role::network), cidrs(r, "my-eks-cluster", range_role::network));
  for (const auto& x : check(r.value, builtin_catalog())) {
    EXPECT_NE(x.id, rule::overlap) << x.message;
    EXPECT_NE(x.id, rule::latent_overlap) << x.message;
  }
}

TEST(ImportAwsEks, HybridNetworksAndIPv6Services) {
  auto r = load({{import_kind::aws_eks, "aws-eks/edge-hybrid.json"}});
  EXPECT_EQ(cidrs(r, "edge-hybrid", range_role::services), (v{"fd6e:2f0a:91c4::/108"}));
  EXPECT_EQ(cidrs(r, "edge-hybrid", range_role::pods), (v{"10.85.0.0/16"}));
  EXPECT_EQ(cidrs(r, "edge-hybrid", range_role::network), (v{"10.80.0.0/16", "10.81.0.0/16"}));
}

TEST(ImportAwsEks, AConnectionToTheVpcReachesTheCluster) {
  auto r = load({{import_kind::aws_eks, "aws-eks/my-eks-cluster.json"}, {import_kind::aws_vpcs, "aws-vpcs/vpcs.json"}},
                "networks: [{name: office, cidrs: [192.168.0.0/24]}]\n"
                "connections: [[office, vpc-0012b8e1cc0abb17d]]\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  ASSERT_EQ(r.value.connections.size(), 1u);
  EXPECT_EQ(r.value.owners[r.value.connections[0].members[1]].name, "my-eks-cluster");
}

}  // namespace
}  // namespace cidrcheck::test
