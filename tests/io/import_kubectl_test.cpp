// The kubectl importer: Nodes, Calico pools and installations, ServiceCIDRs.
// Shared helpers: import_test_support.hpp.

#include "import_test_support.hpp"

#include <gtest/gtest.h>

namespace cidrcheck::test {
namespace {

// kubectl
TEST(ImportKubectl, NodePodCidrsAloneStandForThePodRange) {
  auto r = load({{import_kind::kubectl, "kubectl/lab.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // Three /24s: merged.
  EXPECT_EQ(cidrs(r, "lab", range_role::pods),
            (v{"10.244.0.0/23", "10.244.2.0/24", "fd00:10:244::/63", "fd00:10:244:2::/64"}));
  EXPECT_EQ(cidrs(r, "lab", range_role::services), (v{"10.96.0.0/16", "fd00:10:96::/112"}));
  const auto& o = owner_of(r, "lab");
  EXPECT_EQ(o.node_cidr_mask, 24);
  EXPECT_EQ(o.node_cidr_mask_v6, 64);
  // The node count of allocations alone would always read as full capacity.
  EXPECT_FALSE(o.nodes.has_value());
}

TEST(ImportKubectl, NodesInsideTheClusterCidrAgreeWithKubeadm) {
  auto r = load({{import_kind::kubeadm, "kubeadm/lab.yaml"}, {import_kind::kubectl, "kubectl/lab.yaml"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_TRUE(r.value.conflicts.empty());
  EXPECT_EQ(cidrs(r, "lab", range_role::pods), (v{"10.244.0.0/16", "fd00:10:244::/56"}));
  EXPECT_EQ(owner_of(r, "lab").nodes, 3u);
}

TEST(ImportKubectl, ANodeOutsideTheClusterCidrIsAConflict) {
  auto r = load({{import_kind::kubeadm, "kubeadm/lab.yaml"}, {import_kind::kubectl, "kubectl/drift/lab.yaml"}});
  ASSERT_EQ(r.value.conflicts.size(), 1u);
  const auto& c = r.value.conflicts.front();
  EXPECT_TRUE(c.outside);
  EXPECT_EQ(c.other, (std::vector<prefix>{prefix::parse("10.32.9.0/24")}));
  EXPECT_EQ(c.other_where, (source_location{fixtures + "kubectl/drift/lab.yaml", 21, 7}));
}

// Issue 28, item 20: a Node with podCIDR 0.0.0.0/0 made `import` write
// node_cidr_mask: 0, which the fleet reader refuses. Both take masks from 1 on.
TEST(ImportKubectl, ANodeBlockOfTheWholeAddressSpaceIsAnErrorNotAMaskOfZero) {
  auto r = load_text(import_kind::kubectl, R"(apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, spec: {podCIDR: 0.0.0.0/0}}
- {apiVersion: v1, kind: Node, spec: {podCIDRs: [10.1.0.0/24, "::/0"]}}
)", "nodes.yaml");
  ASSERT_FALSE(r.ok());
  std::vector<std::string> errors;
  for (const auto& d : r.diagnostics) {
    if (d.level == severity::error) errors.push_back(to_string(d.where) + " " + d.code + " " + d.message);
  }
  EXPECT_EQ(errors, (v{"nodes.yaml:4:48 range kubectl: a Node's pod CIDR 0.0.0.0/0 is no node block: node CIDR masks "
                       "are 1 to 32",
                       "nodes.yaml:5:49 range kubectl: a Node's pod CIDR ::/0 is no node block: node CIDR masks are "
                       "1 to 128"}));
  EXPECT_EQ(owner_of(r, "nodes").node_cidr_mask, 24);
  EXPECT_FALSE(owner_of(r, "nodes").node_cidr_mask_v6.has_value());
}

TEST(ImportKubectl, CalicoPoolsAndServiceCidrs) {
  auto r = load({{import_kind::kubeadm, "kubeadm/homelab.yaml"}, {import_kind::kubectl, "kubectl/homelab.json"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  // The disabled default pool is skipped; the IPv6 pool is the only IPv6 pod range.
  EXPECT_EQ(cidrs(r, "homelab", range_role::pods), (v{"192.168.0.0/16", "fd5e:9a1f:3c2b::/48"}));
  // The default ServiceCIDR, and one that extends it.
  EXPECT_EQ(cidrs(r, "homelab", range_role::services), (v{"10.96.0.0/12", "10.112.0.0/24"}));
  EXPECT_TRUE(r.value.conflicts.empty());
}

TEST(ImportKubectl, ASingleObject) {
  auto r = load({{import_kind::kubectl, "kubectl/one-node.yaml"}});
  EXPECT_EQ(cidrs(r, "one-node", range_role::pods), (v{"10.42.0.0/24"}));
}

TEST(ImportKubectl, ObjectsOfOtherKindsOnlyAreAnError) {
  auto r = load_text(import_kind::kubectl, "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.front().message,
            "kubectl: expected the output of `kubectl get nodes,servicecidrs -o yaml`: Nodes, ServiceCIDRs, Calico "
            "IPPools, a Calico Installation or the kube-proxy ConfigMap (none found)");
}

TEST(ImportKubectl, ReadsTheCalicoOperatorsInstallation) {
  auto r = load_text(import_kind::kubectl, R"(apiVersion: operator.tigera.io/v1
kind: Installation
metadata: {name: default}
spec:
  calicoNetwork:
    ipPools:
    - {name: default-ipv4-ippool, blockSize: 26, cidr: 192.168.0.0/16, encapsulation: VXLANCrossSubnet}
    - {name: v6, cidr: "fd00:10:244::/56"}
)", "dc1.yaml");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(cidrs(r, "dc1", range_role::pods), (std::vector<std::string>{"192.168.0.0/16", "fd00:10:244::/56"}));
  // The IPv4 pool's encapsulation; the IPv6 pool says none.
  EXPECT_EQ(owner_of(r, "dc1").pool_encapsulation, "vxlan-cross-subnet");
}

// The tigera-operator chart's values hold the Installation's spec as `installation`.
TEST(ImportKubectl, ReadsTheCalicoOperatorsHelmValues) {
  auto r = load({{import_kind::kubectl, "kubectl/tigera-operator-values.yaml", "dc1"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(cidrs(r, "dc1", range_role::pods), (v{"10.244.0.0/16"}));
  EXPECT_EQ(owner_of(r, "dc1").block_size, 26);
  EXPECT_EQ(owner_of(r, "dc1").pool_encapsulation, "vxlan-cross-subnet");
}

// The encapsulation runbooks copy into a new pool: the enabled IPv4 pools' (the
// disabled default pool of homelab.json is IPIP Always and left out).
TEST(ImportKubectl, ReadsThePoolsEncapsulation) {
  auto r = load({{import_kind::kubectl, "kubectl/homelab.json"}});
  EXPECT_EQ(owner_of(r, "homelab").pool_encapsulation, "vxlan-cross-subnet");
  auto pool = [](std::string_view name, std::string_view cidr, std::string_view modes) {
    return "- {apiVersion: projectcalico.org/v3, kind: IPPool, metadata: {name: " + std::string(name) +
           "}, spec: {cidr: " + std::string(cidr) + ", " + std::string(modes) + "}}\n";
  };
  auto list = [&](std::string items) { return load_text(import_kind::kubectl, "kind: List\nitems:\n" + items, "dc1.yaml"); };
  EXPECT_EQ(owner_of(list(pool("a", "10.9.0.0/16", "ipipMode: Always")), "dc1").pool_encapsulation, "ipip");
  EXPECT_EQ(owner_of(list(pool("a", "10.9.0.0/16", "vxlanMode: Always")), "dc1").pool_encapsulation, "vxlan");
  EXPECT_EQ(owner_of(list(pool("a", "10.9.0.0/16", "natOutgoing: true")), "dc1").pool_encapsulation, "none");
  // Pools that differ leave the cluster without one value, and say so.
  auto mixed = list(pool("a", "10.9.0.0/16", "ipipMode: CrossSubnet") + pool("b", "10.10.0.0/16", "vxlanMode: Always"));
  EXPECT_EQ(owner_of(mixed, "dc1").pool_encapsulation, "");
  EXPECT_TRUE(has_diagnostic(mixed, severity::note,
                             "the IPv4 pools' encapsulation is vxlan here but ipip-cross-subnet at dc1.yaml:3:3"));
  // A mode Calico does not have is a note; the pool is still read.
  auto odd = list(pool("a", "10.9.0.0/16", "ipipMode: Sometimes"));
  ASSERT_TRUE(odd.ok());
  EXPECT_EQ(cidrs(odd, "dc1", range_role::pods), (v{"10.9.0.0/16"}));
  EXPECT_EQ(owner_of(odd, "dc1").pool_encapsulation, "");
  ASSERT_EQ(with_code(odd, "unread-value").size(), 1u);
  EXPECT_EQ(with_code(odd, "unread-value")[0].message,
            "kubectl: ipipMode \"Sometimes\" is not one cidrcheck knows (Always, CrossSubnet, Never): left out");
}

// kube-proxy's ConfigMap as kubeadm writes it: the KubeProxyConfiguration in data."config.conf".
TEST(ImportKubectl, ReadsKubeProxysModeAndClusterCidrFromItsConfigMap) {
  auto r = load({{import_kind::kubectl, "kubectl/kube-proxy.yaml", "dc1"}});
  ASSERT_TRUE(r.ok()) << printed(r);
  EXPECT_EQ(owner_of(r, "dc1").kube_proxy_mode, "nftables");
  EXPECT_EQ(cidrs(r, "dc1", range_role::pods), (v{"10.244.0.0/16"}));
  // Positions inside the block scalar are the outer file's.
  EXPECT_EQ(range_at(r, "dc1", "10.244.0.0/16")->where, (source_location{fixtures + "kubectl/kube-proxy.yaml", 13, 18}));
  auto odd = load_text(import_kind::kubectl,
                       "kind: ConfigMap\nmetadata: {name: kube-proxy}\ndata:\n  config.conf: |\n"
                       "    kind: KubeProxyConfiguration\n    mode: userspace\n",
                       "dc1.yaml");
  ASSERT_TRUE(odd.ok());
  EXPECT_EQ(owner_of(odd, "dc1").kube_proxy_mode, "");
  ASSERT_EQ(with_code(odd, "unread-value").size(), 1u);
  EXPECT_EQ(to_string(with_code(odd, "unread-value")[0].where), "dc1.yaml:6:11");
}

TEST(ImportKubectl, AnInstallationWithoutPoolsIsAWarning) {
  auto r = load_text(import_kind::kubectl,
                     "apiVersion: operator.tigera.io/v1\nkind: Installation\nmetadata: {name: default}\nspec: {}\n"
                     "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec: {podCIDR: 10.244.0.0/24}\n",
                     "dc1.yaml");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(has_diagnostic(r, severity::warning, "lists no spec.calicoNetwork.ipPools"));
}

TEST(ImportKubectl, SaysWhatItSkipsAndDrops) {
  auto r = load_text(import_kind::kubectl, R"(apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: n1}, spec: {podCIDR: 10.244.0.0/24}}
- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}
- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}
- {apiVersion: crd.projectcalico.org/v1, kind: IPPool, metadata: {name: old}, spec: {cidr: 10.9.0.0/16, disabled: true}}
)", "dc1.yaml");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(has_diagnostic(r, severity::note, "skipped 2 objects of kind ConfigMap"));
  EXPECT_TRUE(has_diagnostic(r, severity::warning, "IPPool old is disabled: left out"));
}

TEST(ImportKubectl, KeepsTheLargestCalicoBlockSizePerFamily) {
  auto r = load_text(import_kind::kubectl, R"(apiVersion: v1
kind: List
items:
- {apiVersion: crd.projectcalico.org/v1, kind: IPPool, metadata: {name: a}, spec: {cidr: 10.9.0.0/16, blockSize: 26}}
- {apiVersion: crd.projectcalico.org/v1, kind: IPPool, metadata: {name: b}, spec: {cidr: 10.10.0.0/16, blockSize: 24}}
- {apiVersion: crd.projectcalico.org/v1, kind: IPPool, metadata: {name: c}, spec: {cidr: "fd00:9::/48", blockSize: 122}}
- {apiVersion: crd.projectcalico.org/v1, kind: IPPool, metadata: {name: d}, spec: {cidr: 10.11.0.0/16}}
)", "dc1.yaml");
  ASSERT_TRUE(r.ok());
  const auto& o = r.value.owners[*r.value.find_owner("dc1")];
  EXPECT_EQ(o.block_size, 24);  // a larger block holds fewer per pool: the conservative count
  EXPECT_EQ(o.block_size_v6, 122);
  auto bad = load_text(import_kind::kubectl, "apiVersion: projectcalico.org/v3\nkind: IPPool\n"
                                             "metadata: {name: p}\nspec: {cidr: 10.9.0.0/16, blockSize: 19}\n",
                       "dc1.yaml");
  EXPECT_FALSE(bad.ok());  // Calico accepts 20 to 32 for IPv4
}

TEST(ImportKubectl, SaysTheClusterIsNamedAfterTheFileAndTakesAName) {
  auto inferred = load_text(import_kind::kubectl, "apiVersion: crd.projectcalico.org/v1\nkind: IPPool\n"
                                                  "metadata: {name: p}\nspec: {cidr: 10.9.0.0/16}\n",
                            "exports/dc1-ippools.yaml");
  ASSERT_TRUE(inferred.ok());
  EXPECT_TRUE(inferred.value.find_owner("dc1-ippools"));
  EXPECT_TRUE(has_diagnostic(inferred, severity::note, "named 'dc1-ippools' after the file"));

  // kubectl=NAME:FILE names it: two exports of one cluster become one cluster.
  fleet_loader loader(builtin_catalog());
  loader.add_source("kubectl=dc1:" + fixtures + "kubectl/lab.yaml");
  loader.add_source("kubeadm=dc1:" + fixtures + "kubeadm/lab.yaml");
  auto named = loader.finish();
  EXPECT_TRUE(named.value.find_owner("dc1"));
  EXPECT_FALSE(named.value.find_owner("lab"));
  EXPECT_FALSE(has_diagnostic(named, severity::note, "after the file"));
  EXPECT_EQ(named.value.owners.size(), 1u);

  fleet_loader wrong(builtin_catalog());
  wrong.add_source("aws-vpcs=x:" + fixtures + "aws-vpcs/vpcs.json");
  EXPECT_FALSE(wrong.finish().ok());
}

}  // namespace
}  // namespace cidrcheck::test
