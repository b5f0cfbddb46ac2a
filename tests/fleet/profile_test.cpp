// fleet/profile.hpp: a profile field's value per minor, where a setting lives,
// and a cluster's resolved profile from the shipped catalog.

#include <cidrcheck/fleet/profile.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <gtest/gtest.h>

namespace cidrcheck {
namespace {

TEST(Profile, AtMinorTakesTheEntryThatHoldsTheMinor) {
  std::vector<versioned> values = {{std::nullopt, kube_version{1, 21}, "v1beta2", "f"},
                                   {kube_version{1, 22}, kube_version{1, 30}, "v1beta3", "f"},
                                   {kube_version{1, 31}, std::nullopt, "v1beta4", "f"}};
  cluster_profile p;
  EXPECT_EQ(p.at_minor(values), nullptr);  // no minor known
  for (auto [minor, want] : {std::pair{19, "v1beta2"}, {22, "v1beta3"}, {30, "v1beta3"}, {31, "v1beta4"}, {40, "v1beta4"}}) {
    p.minor = kube_version{1, minor};
    ASSERT_NE(p.at_minor(values), nullptr) << minor;
    EXPECT_EQ(p.at_minor(values)->value, want) << minor;
  }
  values.pop_back();
  p.minor = kube_version{1, 31};
  EXPECT_EQ(p.at_minor(values), nullptr);  // past the last entry: unknown, not the nearest
}

TEST(Profile, PlaceFindsASettingOfOneComponent) {
  distribution_profile d;
  d.settings.push_back({component::kube_controller_manager, "--cluster-cidr", config_store::control_plane,
                        "spec.podCIDR", "", {}, changeable::any_time, "kops-allocate"});
  ASSERT_NE(d.place(component::kube_controller_manager, "--cluster-cidr"), nullptr);
  EXPECT_EQ(d.place(component::kube_controller_manager, "--cluster-cidr")->field, "spec.podCIDR");
  EXPECT_EQ(d.place(component::kube_apiserver, "--cluster-cidr"), nullptr);
}

TEST(Profile, OnlyEditsOfASeparatelyAppliedControlPlaneWaitForAnApply) {
  distribution_profile d;
  d.settings.push_back({component::kube_controller_manager, "--cluster-cidr", config_store::control_plane,
                        "spec.podCIDR", "", {}, changeable::any_time, "f"});
  d.settings.push_back({component::kubelet, "clusterDNS", config_store::kubelet_configuration, "clusterDNS", "", {},
                        changeable::any_time, "f"});
  d.sans = {san_method::spec_field, "f", true};
  const step_action flag = set_flag{component::kube_controller_manager, "--cluster-cidr", std::vector<prefix>{}};
  const step_action kubelet = set_flag{component::kubelet, "clusterDNS", std::vector<address>{}};
  const step_action spec = edit_field{config_store::control_plane, "spec.nonMasqueradeCIDR", std::string("x")};
  const step_action cni = edit_field{config_store::cni_configuration, "Network", std::string("x")};
  const step_action sans = reissue_certificate{};
  // Applied by itself (a static pod manifest): nothing waits.
  d.apply_control_plane = {{}, "f", true};
  for (const auto* a : {&flag, &kubelet, &spec, &cni, &sans}) EXPECT_FALSE(d.edit_waits_for_apply(*a));
  // Applied by the distribution's commands: edits of the control-plane configuration wait.
  d.apply_control_plane = {{"kops update cluster --yes"}, "f", true};
  EXPECT_TRUE(d.edit_waits_for_apply(flag));
  EXPECT_TRUE(d.edit_waits_for_apply(spec));
  EXPECT_TRUE(d.edit_waits_for_apply(sans));
  EXPECT_FALSE(d.edit_waits_for_apply(kubelet));  // placed in another store
  EXPECT_FALSE(d.edit_waits_for_apply(cni));
  EXPECT_FALSE(d.edit_waits_for_apply(step_action{drain_nodes{}}));
  // Not known: nothing is held back on a guess.
  d.apply_control_plane = {{}, "prof-no-source", false};
  EXPECT_FALSE(d.edit_waits_for_apply(flag));
}

TEST(Profile, TheShippedCatalogResolvesDistributionIpamAndMinor) {
  const auto& c = builtin_catalog();
  owner o;
  o.type = "kubeadm";
  o.cni = "calico";
  o.ipam = "host-local";
  o.kubernetes = kube_version{1, 31};
  auto p = c.profile_of(o);
  ASSERT_NE(p.distribution, nullptr);
  ASSERT_NE(p.ipam, nullptr);
  ASSERT_NE(p.kubernetes, nullptr);
  EXPECT_EQ(p.distribution->control_plane.value, control_plane_config::static_pods);
  EXPECT_EQ(p.ipam->addresses.value, address_source::node_pod_cidr);  // host-local numbers pods from node podCIDRs
  EXPECT_EQ(p.kubernetes->service_cidr.value, service_cidr_stage::beta);
  ASSERT_NE(p.at_minor(p.distribution->config_api), nullptr);
  EXPECT_EQ(p.at_minor(p.distribution->config_api)->value, "kubeadm.k8s.io/v1beta4");
  o.ipam.clear();  // Calico's default IPAM mode
  EXPECT_EQ(c.profile_of(o).ipam->pool.value, pool_kind::calico_ippool);
}

TEST(Profile, WhatTheCatalogDoesNotKnowResolvesToNothing) {
  owner o;
  o.type = "no-such-distribution";
  o.cni = "weave";
  o.kubernetes = kube_version{1, 99};
  auto p = builtin_catalog().profile_of(o);
  EXPECT_EQ(p.distribution, nullptr);
  EXPECT_EQ(p.ipam, nullptr);
  EXPECT_EQ(p.kubernetes, nullptr);
  o.kubernetes.reset();
  EXPECT_EQ(builtin_catalog().profile_of(o).kubernetes, nullptr);
}

}  // namespace
}  // namespace cidrcheck
