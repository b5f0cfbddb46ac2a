// The kubeadm importer: kubeadm configuration files.
// Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace cidrcheck::test {
namespace {

// kubeadm
TEST(ImportKubeadm, MultiDocumentDualStackConfiguration) {
  auto r = load({{import_kind::kubeadm, "kubeadm/lab.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  const auto& o = owner_of(r, "lab");
  EXPECT_EQ(o.kubernetes, (kube_version{1, 30}));
  EXPECT_EQ(cidrs(r, "lab", range_role::pods), (v{"10.244.0.0/16", "fd00:10:244::/56"}));
  EXPECT_EQ(cidrs(r, "lab", range_role::services), (v{"10.96.0.0/16", "fd00:10:96::/112"}));
  // Each part of "a,b" has its own column.
  EXPECT_EQ(range_at(r, "lab", "fd00:10:244::/56")->where, (source_location{fixtures + "kubeadm/lab.yaml", 22, 29}));
  EXPECT_EQ(o.node_cidr_mask, 24);
  EXPECT_EQ(o.node_cidr_mask_v6, 64);
  EXPECT_EQ(o.dns, address::parse("10.96.0.10"));
  EXPECT_EQ(o.kube_proxy_mode, "ipvs");  // the KubeProxyConfiguration's mode
}

TEST(ImportKubeadm, TheDefaultClusterNameGivesWayToTheFileName) {
  auto r = load({{import_kind::kubeadm, "kubeadm/homelab.yaml"}});
  EXPECT_EQ(names(r), (v{"homelab"}));
  EXPECT_EQ(owner_of(r, "homelab").node_cidr_mask, 25);  // v1beta3 extraArgs are a mapping
  EXPECT_EQ(cidrs(r, "homelab", range_role::services), v{});  // kubeadm's default comes from the catalog
}

TEST(ImportKubeadm, ABadPartOfAListPointsAtIt) {
  auto r = load_text(import_kind::kubeadm, "kind: ClusterConfiguration\nnetworking:\n  podSubnet: 10.244.0.0/16,fd00::1/64\n",
                     "k.yaml");
  ASSERT_FALSE(r.ok());
  auto error = std::find_if(r.diagnostics.begin(), r.diagnostics.end(),
                            [](const diagnostic& d) { return d.level == severity::error; });
  ASSERT_NE(error, r.diagnostics.end());
  EXPECT_EQ(error->where, (source_location{"k.yaml", 3, 28}));
}

}  // namespace
}  // namespace cidrcheck::test
