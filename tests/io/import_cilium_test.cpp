// The cilium kind: CiliumPodIPPools and the cilium-config ConfigMap's
// cluster-pool settings, read as the IPAM mode uses them.

#include "import_test_support.hpp"

#include <cidrcheck/io/diagnostic_code.hpp>

#include <gtest/gtest.h>

namespace cidrcheck {
namespace {

using namespace cidrcheck::test;

TEST(ImportCilium, ClusterPoolSettingsAreThePodRange) {
  auto r = load({{import_kind::cilium, "cilium/cluster-pool.yaml", "lab"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "lab", range_role::pods), (strings{"10.0.0.0/8"}));
  EXPECT_EQ(range_at(r, "lab", "10.0.0.0/8")->where, (source_location{fixtures + "cilium/cluster-pool.yaml", 9, 27}));
  const auto& o = owner_of(r, "lab");
  EXPECT_EQ(o.node_cidr_mask, 24);
  EXPECT_EQ(o.cni, "cilium");
  EXPECT_EQ(o.ipam, "cluster-pool");
  EXPECT_EQ(o.routing_mode, "tunnel");
}

// A Helm values file reads as the cilium-config it renders (was: refused as no object).
TEST(ImportCilium, HelmValuesReadAsTheConfigTheyRender) {
  auto r = load({{import_kind::cilium, "cilium/values.yaml", "edge-1"}},
                "clusters:\n  - {name: edge-2, pods: 10.62.128.0/17}\n  - {name: core, pods: 10.70.0.0/16}\n");
  ASSERT_TRUE(r.ok()) << printed(r);
  const auto& o = owner_of(r, "edge-1");
  EXPECT_EQ(cidrs(r, "edge-1", range_role::pods), (strings{"10.61.0.0/16"}));
  EXPECT_EQ(o.node_cidr_mask, 24);
  EXPECT_EQ(o.ipam, "cluster-pool");
  EXPECT_EQ(o.routing_mode, "native");
  // The IPv6 list is unused while ipv6.enabled is false: a warning, not a range.
  EXPECT_TRUE(has_diagnostic(r, severity::warning, "clusterPoolIPv6PodCIDRList left out: ipv6.enabled is not true"));
  // The ClusterMesh's clusters: one connection each, the catalog's cilium-clustermesh roles.
  ASSERT_EQ(r.value.connections.size(), 2u);
  for (const auto& c : r.value.connections) {
    EXPECT_EQ(c.via, "mesh");
    EXPECT_EQ(c.routes, builtin_catalog().find_mesh("cilium-clustermesh")->routes);
  }
}

// routing-mode, else (Cilium 1.14 and before) the tunnel key: disabled is native routing.
TEST(ImportCilium, ReadsTheRoutingModeOfNowAndOfOldCiliums) {
  auto config = [](std::string_view data) {
    return load_text(import_kind::cilium,
                     "kind: ConfigMap\nmetadata: {name: cilium-config}\ndata: {" + std::string(data) + "}\n", "dc1.yaml");
  };
  EXPECT_EQ(owner_of(config("routing-mode: native"), "dc1").routing_mode, "native");
  EXPECT_EQ(owner_of(config("tunnel: disabled"), "dc1").routing_mode, "native");
  EXPECT_EQ(owner_of(config("tunnel: geneve"), "dc1").routing_mode, "tunnel");
  EXPECT_EQ(owner_of(config("routing-mode: tunnel, tunnel: disabled"), "dc1").routing_mode, "tunnel");
  auto odd = config("routing-mode: hybrid");
  ASSERT_TRUE(odd.ok());
  EXPECT_EQ(owner_of(odd, "dc1").routing_mode, "");
  EXPECT_EQ(with_code(odd, "unread-value").size(), 1u);
}

TEST(ImportCilium, MultiPoolReadsEveryPool) {
  auto r = load({{import_kind::cilium, "cilium/multi-pool.yaml", "lab"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // No other source states the pod range: the pools, merged, stand in for it.
  EXPECT_EQ(cidrs(r, "lab", range_role::pods), (strings{"10.10.0.0/16", "10.20.0.0/15", "fd00:10:10::/48"}));
  const auto& o = owner_of(r, "lab");
  EXPECT_EQ(o.node_cidr_mask, 26);  // the largest node block among the pools
  EXPECT_EQ(o.node_cidr_mask_v6, 64);
  EXPECT_EQ(o.ipam, "multi-pool");
  auto skipped = with_code(r, "skipped");
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].message,
            "cilium: skipped 1 object of kind CiliumNode: cilium reads CiliumPodIPPools, the ConfigMap cilium-config and "
            "the Secret cilium-clustermesh");
}

TEST(ImportCilium, SettingsTheIpamModeDoesNotUseAreWarnings) {
  auto r = load({{import_kind::cilium, "cilium/kubernetes-mode.yaml", "lab"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "lab", range_role::pods), strings{});
  EXPECT_FALSE(owner_of(r, "lab").node_cidr_mask.has_value());
  auto skipped = with_code(r, "skipped");
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].level, severity::warning);
  EXPECT_EQ(skipped[0].where.line, 7u);
  EXPECT_EQ(skipped[0].message,
            "cilium: cluster-pool settings left out: ipam is kubernetes, which does not read them (see the ipam key)");
  // Pools outside multi-pool mode too.
  auto pools = load_text(import_kind::cilium,
                         "kind: ConfigMap\nmetadata: {name: cilium-config}\ndata: {ipam: cluster-pool}\n---\n"
                         "apiVersion: cilium.io/v2alpha1\nkind: CiliumPodIPPool\nmetadata: {name: a}\n"
                         "spec: {ipv4: {cidrs: [10.1.0.0/16], maskSize: 24}}\n", "x.yaml");
  ASSERT_TRUE(pools.ok()) << printed(pools);
  EXPECT_EQ(with_code(pools, "skipped").size(), 1u) << printed(pools);
  EXPECT_EQ(cidrs(pools, "x", range_role::pods), strings{});
}

TEST(ImportCilium, BadPoolsAreErrorsAtTheirPositions) {
  auto r = load({{import_kind::cilium, "cilium/bad-pool.yaml", "lab"}});
  ASSERT_FALSE(r.ok());
  std::vector<std::uint32_t> lines;
  for (const auto& d : r.diagnostics) {
    if (d.level == severity::error) lines.push_back(d.where.line);
  }
  EXPECT_EQ(lines, (std::vector<std::uint32_t>{9, 10})) << printed(r);  // host bits in 10.31.0.0/15; maskSize 40
}

TEST(ImportCilium, PoolsMustLieInsideThePodRangeOtherSourcesState) {
  // kubeadm's podSubnet says one range, Cilium's pools another: a source-conflict.
  auto r = load({{import_kind::kubeadm_config, "kubeadm-config/lab.yaml", "lab"},
                 {import_kind::cilium, "cilium/multi-pool.yaml", "lab"}});
  EXPECT_FALSE(with_code(r, diag::sources_disagree).empty()) << printed(r);
}

TEST(ImportCilium, AFileOfSomethingElseSaysWhatIsExpected) {
  auto r = load_text(import_kind::cilium, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: coredns}\n", "x.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(printed(r).find("CiliumPodIPPools, the ConfigMap cilium-config or the Secret cilium-clustermesh (none found)"), std::string::npos)
      << printed(r);
}

}  // namespace
}  // namespace cidrcheck
