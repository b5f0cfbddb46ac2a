#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cidrcheck {
namespace {

TEST(Catalog, TheShippedCatalogParsesAndCitesEverySource) {
  const auto& c = builtin_catalog();
  EXPECT_GE(c.distributions.size(), 15u);
  for (const auto& d : c.distributions) EXPECT_FALSE(d.source.empty()) << d.name;
  for (const auto& t : c.network_types) EXPECT_FALSE(t.source.empty()) << t.name;
  for (const auto& b : c.blocks) {
    EXPECT_FALSE(b.source.empty()) << b.cidr.to_string();
    EXPECT_TRUE(find_rule(b.rule).has_value()) << b.rule;
  }
  ASSERT_NE(c.find_network_type("tailscale"), nullptr);
  EXPECT_EQ(c.find_network_type("tailscale")->cidrs.front(), prefix::parse("100.64.0.0/10"));
  ASSERT_NE(c.find_distribution("kops"), nullptr);
  EXPECT_EQ(c.find_distribution("kops")->pods.front(), prefix::parse("100.96.0.0/11"));
}

auto cluster(std::string distribution, std::string cni = {}, std::string ipam = {}) -> owner {
  owner o;
  o.kind = owner_kind::cluster;
  o.type = std::move(distribution);
  o.cni = std::move(cni);
  o.ipam = std::move(ipam);
  return o;
}

// A cluster that names no CNI runs its distribution's default (EKS: the VPC CNI,
// fact dist-eks-cni), and so has that CNI's IPAM profile; one that names a CNI runs it.
TEST(Catalog, AClusterThatNamesNoCniRunsItsDistributionsDefault) {
  const auto& c = builtin_catalog();
  EXPECT_EQ(c.find_distribution("eks")->cni.value, "vpc-cni");
  EXPECT_EQ(c.find_distribution("eks")->cni.fact, "dist-eks-cni");
  EXPECT_EQ(c.cni_of(cluster("eks")), "vpc-cni");
  ASSERT_NE(c.ipam_of(cluster("eks")), nullptr);
  EXPECT_EQ(c.ipam_of(cluster("eks"))->name, "secondary-ip");
  EXPECT_NE(c.profile_of(cluster("eks")).ipam, nullptr);
  EXPECT_EQ(c.cni_of(cluster("eks", "calico")), "calico");
  EXPECT_EQ(c.cni_of(cluster("kubeadm")), "");
  EXPECT_EQ(c.ipam_of(cluster("kubeadm")), nullptr);
}

// A kops cluster on Cilium that names no IPAM mode runs `kubernetes`, the mode
// kops sets (kops-cilium-default-ipam), not Cilium's own default, cluster-pool:
// its pods come from Node podCIDRs, so a pod move is kube-controller-manager's.
TEST(Catalog, ADistributionMayRunACniInAnotherIpamModeThanTheCnisDefault) {
  const auto& c = builtin_catalog();
  ASSERT_NE(c.ipam_of(cluster("kops", "cilium")), nullptr);
  EXPECT_EQ(c.ipam_of(cluster("kops", "cilium"))->name, "kubernetes");
  EXPECT_EQ(c.pod_numbering_of(cluster("kops", "cilium")).addresses, address_source::node_pod_cidr);
  EXPECT_EQ(c.find_distribution("kops")->cni_ipam.at(0).fact, "kops-cilium-default-ipam");
  // Elsewhere Cilium's default, and a mode the cluster names wins everywhere.
  EXPECT_EQ(c.ipam_of(cluster("kubeadm", "cilium"))->name, "cluster-pool");
  EXPECT_EQ(c.ipam_of(cluster("kops", "cilium", "crd"))->name, "crd");
  EXPECT_EQ(c.ipam_of(cluster("kops", "calico"))->name, "calico-ipam");
  // So the plan offers kops' Cilium pods kube-controller-manager's move, never the cluster-pool
  // append that kops does not run (kops-cilium-ipam); a kops cluster that says cluster-pool gets it.
  EXPECT_FALSE(c.offers(*c.find_operation("cilium-pool-append"), cluster("kops", "cilium")));
  EXPECT_TRUE(c.offers(*c.find_operation("kcm-node-ipam"), cluster("kops", "cilium")));
  EXPECT_TRUE(c.offers(*c.find_operation("cilium-pool-append"), cluster("kops", "cilium", "cluster-pool")));
  EXPECT_TRUE(c.offers(*c.find_operation("cilium-pool-append"), cluster("kubeadm", "cilium")));
}

// Where pods take their addresses from: the IPAM profile's `addresses`, else
// network or external where the mode's `pods_from` says so, else unknown.
TEST(Catalog, PodNumberingReadsTheIpamProfile) {
  const auto& c = builtin_catalog();
  EXPECT_EQ(c.pod_numbering_of(cluster("eks")).addresses, address_source::network);
  EXPECT_EQ(c.pod_numbering_of(cluster("kubeadm", "vpc-cni", "custom-networking")).addresses, address_source::network);
  EXPECT_EQ(c.pod_numbering_of(cluster("kubeadm", "calico")).addresses, address_source::cni_pool);
  EXPECT_EQ(c.pod_numbering_of(cluster("kubeadm", "calico", "host-local")).addresses, address_source::node_pod_cidr);
  EXPECT_EQ(c.pod_numbering_of(cluster("kubeadm", "cilium", "azure")).addresses, address_source::network);  // no profile
  EXPECT_EQ(c.pod_numbering_of(cluster("kubeadm", "cilium", "crd")).addresses, address_source::external);
  EXPECT_EQ(c.pod_numbering_of(cluster("kubeadm", "cilium", "delegated-plugin")).addresses, address_source::unknown);
  EXPECT_EQ(c.pod_numbering_of(cluster("kubeadm")).addresses, address_source::unknown);
  // A k3s cluster that names no CNI runs k3s's flannel (dist-k3s-cni).
  EXPECT_EQ(c.pod_numbering_of(cluster("k3s")).cni, "flannel");
  EXPECT_EQ(c.pod_numbering_of(cluster("k3s")).addresses, address_source::node_pod_cidr);
  EXPECT_EQ(c.pod_numbering_of(cluster("kubeadm")).cni, "");
}

// kcm-node-ipam says in the catalog which pods it moves, with its fact.
TEST(Catalog, NodeIpamListsThePodAddressSourcesItMoves) {
  const auto* k = builtin_catalog().find_operation("kcm-node-ipam");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->pod_addresses.value, (std::vector<address_source>{address_source::node_pod_cidr, address_source::unknown}));
  EXPECT_EQ(k->pod_addresses.fact, "kcm-moves-node-pods");
}

}  // namespace
}  // namespace cidrcheck
