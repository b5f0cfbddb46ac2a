// The aks importer: `az aks show` output and ARM resources.
// Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <gtest/gtest.h>

namespace cidrcheck::test {
namespace {

// az aks show
TEST(ImportAks, KubenetClusterWithTheDefaultBridge) {
  auto r = load({{import_kind::aks, "aks/patty-kube.json"}});
  const auto& o = owner_of(r, "patty-kube");
  EXPECT_EQ(o.kubernetes, (kube_version{1, 28}));
  EXPECT_EQ(cidrs(r, "patty-kube", range_role::pods), (v{"10.244.0.0/16"}));
  EXPECT_EQ(cidrs(r, "patty-kube", range_role::services), (v{"10.0.0.0/16"}));
  // Docker's own default bridge: the docker-bridge rule knows it already.
  EXPECT_EQ(cidrs(r, "patty-kube", range_role::network), v{});
  EXPECT_EQ(o.dns, address::parse("10.0.0.10"));
  EXPECT_EQ(o.nodes, 5u);
}

TEST(ImportAks, ArmResourceWithCapitalisedKeysAndAzureCni) {
  auto r = load({{import_kind::aks, "aks/arm-azure-cni.json"}});
  const auto& o = owner_of(r, "aksansibletest");
  EXPECT_EQ(o.dns, address::parse("10.2.0.10"));  // dnsServiceIP
  EXPECT_TRUE(o.declared.has(range_role::pods));  // Azure CNI: pods take node subnet addresses
  EXPECT_EQ(cidrs(r, "aksansibletest", range_role::pods), v{});
  EXPECT_EQ(cidrs(r, "aksansibletest", range_role::network), (v{"172.18.0.0/16"}));  // a bridge of its own
  ASSERT_EQ(codes(r), (v{"unresolved-link"}));
  EXPECT_NE(r.diagnostics.front().message.find("aksansibletest/aksansibletest"), std::string::npos);
  // It runs in the virtual network of its agent pool's vnetSubnetID.
  EXPECT_EQ(o.runs_in, "aksansibletest/aksansibletest");
}

// Azure CNI Overlay names the catalog's CNI and IPAM mode, so the plan can grow
// its pod CIDR in place (aks-pod-expand); kubenet and flat Azure CNI name none.
TEST(ImportAks, OverlayNamesItsCniAndIpamMode) {
  auto r = load({{import_kind::aks, "aks/overlay.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  const auto& o = owner_of(r, "payments");
  EXPECT_EQ(o.cni, "azure-cni");
  EXPECT_EQ(o.ipam, "overlay");
  EXPECT_EQ(cidrs(r, "payments", range_role::pods), (v{"10.244.0.0/18"}));
  EXPECT_EQ(o.nodes, 100u);
  for (const auto* other : {"aks/patty-kube.json", "aks/arm-azure-cni.json"}) {
    auto kubenet = load({{import_kind::aks, other}});
    EXPECT_EQ(kubenet.value.owners.front().cni, "") << other;
  }
}

TEST(ImportAks, ItsVirtualNetworkFromTerraformBecomesItsNetwork) {
  auto r = load({{import_kind::aks, "aks/patty-kube.json"}, {import_kind::terraform, "terraform/terraform.tfstate"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "patty-kube", range_role::network), (v{"10.224.0.0/12"}));
  EXPECT_FALSE(r.value.find_owner("cogserv-container-rg/aks-vnet").has_value());
  EXPECT_TRUE(r.value.conflicts.empty());
}

}  // namespace
}  // namespace cidrcheck::test
