// The kops importer: kops Cluster and InstanceGroup specs.
// Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <gtest/gtest.h>

namespace cidrcheck::test {
namespace {

// kops
TEST(ImportKops, AsWrittenPodsAndServicesComeFromNonMasqueradeCidr) {
  auto r = load({{import_kind::kops, "kops/minimal.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "minimal.example.com", range_role::network), (v{"172.20.0.0/16"}));
  EXPECT_EQ(cidrs(r, "minimal.example.com", range_role::pods), (v{"100.96.0.0/11"}));
  EXPECT_EQ(cidrs(r, "minimal.example.com", range_role::services), (v{"100.64.0.0/13"}));
  EXPECT_EQ(range_at(r, "minimal.example.com", "100.96.0.0/11")->where.line, 26u);  // nonMasqueradeCIDR
  // Instance groups: 2 nodes and 1 control plane at most.
  EXPECT_EQ(owner_of(r, "minimal.example.com").nodes, 3u);
}

TEST(ImportKops, NetworkIdNamesTheNetworkItRunsIn) {
  auto r = load_text(import_kind::kops, R"({"apiVersion": "kops.k8s.io/v1alpha2", "kind": "Cluster",
  "metadata": {"name": "shared.example.com"},
  "spec": {"networkID": "vpc-0abc", "networkCIDR": "10.50.0.0/16", "kubernetesVersion": "1.30.0"}})");
  EXPECT_EQ(owner_of(r, "shared.example.com").runs_in, "vpc-0abc");
  EXPECT_EQ(owner_of(r, "shared.example.com").runs_in_where.line, 3u);
  EXPECT_EQ(cidrs(r, "shared.example.com", range_role::network), (v{"10.50.0.0/16"}));
}

TEST(ImportKops, TheCompletedSpecAgreesWithTheWrittenOne) {
  auto r = load({{import_kind::kops, "kops/minimal.yaml"}, {import_kind::kops, "kops/completed.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_TRUE(r.value.conflicts.empty());
  EXPECT_TRUE(r.diagnostics.empty()) << printed(r);
  EXPECT_EQ(owner_of(r, "minimal.example.com").dns, address::parse("100.64.0.10"));
}

// kube-proxy's mode where the spec sets it (kubeProxy.proxyMode); the fixtures leave it to kops.
TEST(ImportKops, ReadsKubeProxysModeWhereTheSpecSetsIt) {
  EXPECT_EQ(owner_of(load({{import_kind::kops, "kops/completed.yaml"}}), "minimal.example.com").kube_proxy_mode, "");
  auto r = load_text(import_kind::kops, R"(apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata: {name: ipvs.example.com}
spec:
  networkCIDR: 172.20.0.0/16
  nonMasqueradeCIDR: 100.64.0.0/10
  kubeProxy: {proxyMode: ipvs}
)", "c.yaml");
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(owner_of(r, "ipvs.example.com").kube_proxy_mode, "ipvs");
}

TEST(ImportKops, IPv6PodsTakeSubnetPrefixes) {
  auto r = load({{import_kind::kops, "kops/minimal-ipv6.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_TRUE(owner_of(r, "minimal-ipv6.example.com").declared.has(range_role::pods));
  EXPECT_EQ(cidrs(r, "minimal-ipv6.example.com", range_role::pods), v{});
  EXPECT_EQ(cidrs(r, "minimal-ipv6.example.com", range_role::services), (v{"fd00:5e4f:ce::/108"}));
  // "/64#2" is a subnet kops has yet to allocate.
  EXPECT_EQ(cidrs(r, "minimal-ipv6.example.com", range_role::network), (v{"172.20.0.0/16", "2600:1f18:2c41:7e11::/64"}));
}

TEST(ImportKops, ComponentFlagsThatDisagreeAreAConflict) {
  auto r = load_text(import_kind::kops, R"(apiVersion: kops.k8s.io/v1alpha3
kind: Cluster
metadata: {name: c.example.com}
spec:
  networking:
    networkCIDR: 10.0.0.0/16
    podCIDR: 100.96.0.0/11
    serviceClusterIPRange: 100.64.0.0/13
  kubeControllerManager:
    clusterCIDR: 100.96.0.0/12
)",
                     "c.yaml");
  ASSERT_EQ(r.value.conflicts.size(), 1u);
  EXPECT_EQ(r.value.conflicts[0].other_where, (source_location{"c.yaml", 10, 18}));
  EXPECT_EQ(cidrs(r, "c.example.com", range_role::network), (v{"10.0.0.0/16"}));
}

TEST(ImportKops, AFileWithoutAClusterIsAnError) {
  auto r = load_text(import_kind::kops, "apiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\nspec: {maxSize: 2}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().code, "import-format");
}

TEST(ImportKops, SaysWhatItSkips) {
  auto r = load_text(import_kind::kops, R"(apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata: {name: a.example.com}
spec: {networkCIDR: 172.20.0.0/16, nonMasqueradeCIDR: 100.64.0.0/10}
---
apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata: {name: nodes, labels: {kops.k8s.io/cluster: other.example.com}}
spec: {maxSize: 7}
---
apiVersion: kops.k8s.io/v1alpha2
kind: Keyset
metadata: {name: ca}
)", "all.yaml");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(has_diagnostic(r, severity::warning, "InstanceGroups of cluster other.example.com (7 nodes)"));
  EXPECT_TRUE(has_diagnostic(r, severity::note, "skipped 1 document of kind Keyset"));
}

}  // namespace
}  // namespace cidrcheck::test
