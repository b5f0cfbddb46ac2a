// The gke importer: `gcloud container clusters describe` and `list` output.
// Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <gtest/gtest.h>

namespace cidrcheck::test {
namespace {

// gcloud container clusters describe, gcloud compute networks subnets list
TEST(ImportGke, PodServiceAndControlPlaneRangesNodeMaskAndNodes) {
  auto r = load({{import_kind::gke, "gke/prod-us.json"}});
  const auto& o = owner_of(r, "prod-us");
  EXPECT_EQ(o.kubernetes, (kube_version{1, 29}));
  // The default pool's range and the batch pool's more.
  EXPECT_EQ(cidrs(r, "prod-us", range_role::pods), (v{"10.4.0.0/14", "10.12.0.0/16"}));
  EXPECT_EQ(cidrs(r, "prod-us", range_role::services), (v{"10.8.0.0/20"}));
  EXPECT_EQ(cidrs(r, "prod-us", range_role::network), (v{"172.16.0.32/28"}));
  // nodeIpv4CidrSize 0 is unset; the largest pool block is a /24.
  EXPECT_EQ(o.node_cidr_mask, 24);
  EXPECT_EQ(o.nodes, 5u);
  EXPECT_EQ(codes(r), (v{"unresolved-link"}));
}

TEST(ImportGke, TheSubnetGivesTheNetworkAndKeepsWhatTheClusterDoesNotUse) {
  auto r = load({{import_kind::gke, "gke/prod-us.json"}, {import_kind::gcp_subnets, "gcp-subnets/subnets.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "prod-us", range_role::network), (v{"10.10.0.0/20", "172.16.0.32/28"}));
  EXPECT_EQ(cidrs(r, "prod-us", range_role::pods), (v{"10.4.0.0/14", "10.12.0.0/16"}));
  EXPECT_EQ(cidrs(r, "acme-prod/us-central1/gke-prod", range_role::external), (v{"10.20.0.0/16"}));
  EXPECT_TRUE(r.value.conflicts.empty());
  EXPECT_TRUE(r.diagnostics.empty()) << printed(r);
  // It runs in its VPC network, named as the Terraform importer names a google_compute_network.
  EXPECT_EQ(owner_of(r, "prod-us").runs_in, "acme-prod/prod-vpc");
}

TEST(ImportGke, ASecondaryRangeThatDisagreesIsAConflict) {
  fleet_loader loader(builtin_catalog());
  loader.add_import(import_kind::gke, fixtures + "gke/prod-us.json");
  loader.add_import_text(import_kind::gcp_subnets, R"([{
  "name": "gke-prod", "ipCidrRange": "10.10.0.0/20",
  "selfLink": "https://www.googleapis.com/compute/v1/projects/acme-prod/regions/us-central1/subnetworks/gke-prod",
  "secondaryIpRanges": [{"rangeName": "gke-prod-us-services-c6001cf3", "ipCidrRange": "10.9.0.0/20"}]}])",
                         "subnets.json");
  auto r = loader.finish();
  ASSERT_EQ(r.value.conflicts.size(), 1u);
  const auto& c = r.value.conflicts.front();
  EXPECT_EQ(r.value.ranges[c.kept.front()].cidr.to_string(), "10.8.0.0/20");
  EXPECT_EQ(c.other, (std::vector<prefix>{prefix::parse("10.9.0.0/20")}));
  EXPECT_EQ(c.other_where, (source_location{"subnets.json", 4, 87}));
  EXPECT_FALSE(c.outside);
}

TEST(ImportGke, AListOfClusters) {
  auto r = load_text(import_kind::gke, R"([{"name": "a", "clusterIpv4Cidr": "10.0.0.0/14"},
                                           {"name": "b", "clusterIpv4Cidr": "10.4.0.0/14"}])");
  EXPECT_EQ(names(r), (v{"a", "b"}));
}

}  // namespace
}  // namespace cidrcheck::test
