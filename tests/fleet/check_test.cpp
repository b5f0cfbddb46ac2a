#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {
namespace {

struct checked {
  fleet_load_result loaded;
  std::vector<finding> findings;

  auto of(rule r) const -> std::vector<const finding*> {
    std::vector<const finding*> out;
    for (const auto& x : findings) {
      if (x.id == r) out.push_back(&x);
    }
    return out;
  }
  auto cidr(const finding& x, std::size_t k) const -> std::string {
    return loaded.value.ranges[x.ranges[k]].cidr.to_string();
  }
  auto owner_of(const finding& x, std::size_t k) const -> const std::string& {
    return loaded.value.owners[loaded.value.ranges[x.ranges[k]].owner].name;
  }
};

auto run(std::string_view yaml) -> checked {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "t.yaml");
  checked c{loader.finish(), {}};
  EXPECT_TRUE(c.loaded.ok()) << (c.loaded.diagnostics.empty() ? "" : format_diagnostic(c.loaded.diagnostics[0]));
  c.findings = check(c.loaded.value, builtin_catalog());
  return c;
}

// The pods each cluster ends up with, "name cidr origin", in fleet order.
auto pods_of(const checked& c) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& r : c.loaded.value.ranges) {
    if (r.role == range_role::pods) {
      out.push_back(c.loaded.value.owners[r.owner].name + " " + r.cidr.to_string() + " " +
                    std::string(to_string(r.origin)));
    }
  }
  return out;
}

TEST(CheckCni, EachIpamModeTakesPodsFromItsSource) {
  auto c = run(R"(
clusters:
  - {name: pool, distribution: eks, cni: cilium, network: 10.20.0.0/16}
  - {name: pool-over-k3s, distribution: k3s, cni: cilium}
  - {name: host-scope, distribution: k3s, cni: cilium, ipam: kubernetes}
  - {name: eni, distribution: kops, cni: cilium, ipam: eni}
  - {name: multi, distribution: kops, cni: cilium, ipam: multi-pool}
  - {name: calico-kubeadm, distribution: kubeadm, cni: calico}
  - {name: calico-kops, distribution: kops, cni: calico}
  - {name: flannel, distribution: kubeadm, cni: flannel}
  - {name: vpc, distribution: kops, cni: vpc-cni}
  - {name: no-distribution, cni: cilium}
  - {name: unknown-cni, distribution: kops, cni: weave}
)");
  EXPECT_EQ(pods_of(c), (std::vector<std::string>{
                            "pool 10.0.0.0/8 cni-default",  // cluster-pool ignores the distribution
                            "pool-over-k3s 10.0.0.0/8 cni-default",
                            "host-scope 10.42.0.0/16 distribution-default",
                            "calico-kubeadm 192.168.0.0/16 cni-default",  // kubeadm has no pod default
                            "calico-kops 100.96.0.0/11 distribution-default",
                            "flannel 10.244.0.0/16 cni-default",
                            "no-distribution 10.0.0.0/8 cni-default",
                            "unknown-cni 100.96.0.0/11 distribution-default",
                        }));
  // The Cilium pool swallows the VPC: an internal overlap, reported.
  auto internal = c.of(rule::overlap_internal);
  ASSERT_FALSE(internal.empty());
  EXPECT_EQ(c.owner_of(*internal[0], 0), "pool");
  EXPECT_NE(internal[0]->message.find("(cilium default)"), std::string::npos) << internal[0]->message;
}

// catalog `pods_from: network` (VPC CNI, Cilium ENI): pods inside their own cluster's network are the design
// (custom networking's pods in a secondary VPC CIDR), so no overlap-internal; pods only partly inside, pods
// of a CNI with a pool of its own, and pods inside another owner's network are still findings.
TEST(CheckCni, PodsInsideTheirOwnNetworkAreNoOverlapWhereTheCniTakesThemFromIt) {
  auto c = run(R"(
clusters:
  - {name: custom, distribution: eks, cni: vpc-cni, ipam: custom-networking, network: [10.20.0.0/16, 100.64.0.0/16], pods: 100.64.0.0/17, services: 172.20.0.0/16}
  - {name: eni, distribution: kops, cni: cilium, ipam: eni, network: 10.30.0.0/16, pods: 10.30.128.0/17, services: 10.96.0.0/16}
  - {name: partly, distribution: eks, cni: vpc-cni, network: 10.40.0.0/17, pods: 10.40.0.0/16, services: 172.21.0.0/16}
  - {name: calico, distribution: kubeadm, cni: calico, network: 10.50.0.0/16, pods: 10.50.0.0/17, services: 10.97.0.0/16}
)");
  std::vector<std::string> owners;
  for (const auto* x : c.of(rule::overlap_internal)) owners.push_back(c.owner_of(*x, 0));
  EXPECT_EQ(owners, (std::vector<std::string>{"partly", "calico"}));
}

TEST(CheckCni, CalicoCapacityCountsBlocksOfItsBlockSize) {
  auto c = run(R"(
clusters:
  - {name: calico, distribution: kubeadm, cni: calico, pods: 10.80.0.0/18, nodes: 150}
  - {name: kcm, distribution: kubeadm, pods: 10.81.0.0/18, nodes: 150}
  - {name: declared, distribution: kubeadm, cni: calico, block_size: 22, pods: 10.82.0.0/18, nodes: 40}
  - {name: v6, distribution: kubeadm, cni: calico, pods: "fd00:1::/118", nodes: 20}
)");
  std::vector<std::string> errors;
  for (const auto* x : c.of(rule::pod_capacity)) errors.push_back(c.owner_of(*x, 0));
  // 256 /26 blocks hold 150 nodes; 64 /24 node blocks and 16 /22 blocks do not, nor 16 /122 blocks 20 nodes.
  EXPECT_EQ(errors, (std::vector<std::string>{"kcm", "declared", "v6"}));
  const auto& f = c.loaded.value;
  EXPECT_EQ(builtin_catalog().pod_block(f.owners[0], ip_version::v4), 26);
  EXPECT_EQ(builtin_catalog().pod_block(f.owners[0], ip_version::v6), 122);
  EXPECT_EQ(builtin_catalog().pod_block(f.owners[1], ip_version::v4), 24);
  EXPECT_EQ(builtin_catalog().pod_block(f.owners[2], ip_version::v4), 22);
}

TEST(CheckCni, KindIsIpv4OnlyUnlessItsIpFamilySaysOtherwise) {
  auto c = run(R"(
clusters:
  - {name: a, distribution: kind}
  - {name: b, distribution: kind, ip_family: dual}
  - {name: c, distribution: kind, ip_family: ipv6}
  - {name: d, distribution: k3s, ip_family: ipv6}
connections:
  - [a, b, c]
)");
  EXPECT_EQ(pods_of(c), (std::vector<std::string>{"a 10.244.0.0/16 distribution-default",
                                                  "b 10.244.0.0/16 distribution-default",
                                                  "b fd00:10:244::/56 distribution-default",
                                                  "c fd00:10:244::/56 distribution-default"}));
  // Only b and c share IPv6 space; a, the default, brings none.
  for (const auto* x : c.of(rule::overlap)) {
    if (c.loaded.value.ranges[x->ranges[0]].cidr.version() != ip_version::v6) continue;
    EXPECT_NE(c.owner_of(*x, 0), "a");
    EXPECT_NE(c.owner_of(*x, 1), "a");
  }
}

TEST(CheckNat, TranslatedMembersHideTheirOverlapsAndTheirGlobalsMustBeDisjoint) {
  auto c = run(R"(
clusters:
  - {name: east, network: 10.0.0.0/16}
  - {name: west, network: 10.0.0.0/16}
  - {name: south, network: 10.0.0.0/16}
networks:
  - {name: office, cidrs: [172.16.9.0/24]}
connections:
  - between: [east, west, south]
    via: globalnet
    translated: {east: 172.16.0.0/20, west: 172.16.16.0/20, south: 172.16.24.0/21}
  - between: [office, east]
    via: vpn
)");
  EXPECT_TRUE(c.of(rule::overlap).empty());
  EXPECT_TRUE(c.of(rule::latent_overlap).empty());
  auto globals = c.of(rule::global_range_overlap);
  ASSERT_EQ(globals.size(), 2u);
  std::vector<std::string> pairs;
  for (const auto* x : globals) pairs.push_back(c.cidr(*x, 0) + " " + c.cidr(*x, 1));
  std::sort(pairs.begin(), pairs.end());
  // The office range is routed at east; west's and south's globals share addresses.
  EXPECT_EQ(pairs, (std::vector<std::string>{"172.16.0.0/20 172.16.9.0/24", "172.16.16.0/20 172.16.24.0/21"}));
}

TEST(CheckNat, AnOverlapRoutedOutsideTheNatIsStillReported) {
  auto c = run(R"(
clusters:
  - {name: east, network: 10.0.0.0/16}
  - {name: west, network: 10.0.0.0/16}
connections:
  - {between: [east, west], via: nat, translated: {east: 172.16.0.0/20, west: 172.16.16.0/20}}
  - {between: [east, west], via: peering}
)");
  EXPECT_EQ(c.of(rule::overlap).size(), 1u);
}


// A plan checks without the overlaps' text (one finding per pair) and describes
// the few it shows: the text must be what check() gives.
TEST(CheckDescribe, OverlapsDescribedLaterReadAsCheckWrites) {
  constexpr std::string_view yaml = R"(
clusters:
  - {name: a, network: [10.0.0.0/16], pods: [10.0.0.0/17], services: [10.96.0.0/16]}
  - {name: b, network: [10.1.0.0/16], pods: [10.2.0.0/16], services: [10.96.0.0/16]}
  - {name: c, network: [10.3.0.0/16], pods: [10.2.0.0/16], services: [10.97.0.0/16]}
  - {name: d, network: [10.4.0.0/16], pods: [10.5.0.0/16], services: [10.96.0.0/16]}
connections:
  - {name: mesh, via: mesh, routes: [pods, services], between: [a, b, d]}
plan:
  pin: [b/services]
)";
  auto full = run(yaml);
  check_options lean;
  lean.describe_overlaps = false;
  auto later = check(full.loaded.value, builtin_catalog(), lean);
  ASSERT_EQ(later.size(), full.findings.size());
  std::vector<std::uint32_t> all;
  std::vector<rule> kinds;
  for (std::uint32_t k = 0; k < later.size(); ++k) {
    all.push_back(k);
    kinds.push_back(later[k].id);
    bool pair = later[k].id == rule::overlap || later[k].id == rule::overlap_internal || later[k].id == rule::latent_overlap;
    EXPECT_EQ(later[k].message.empty(), pair) << full.findings[k].message;
  }
  for (auto r : {rule::overlap, rule::overlap_internal, rule::latent_overlap}) {
    EXPECT_NE(std::find(kinds.begin(), kinds.end(), r), kinds.end()) << "the fleet lacks a case";
  }
  describe_overlaps(full.loaded.value, builtin_catalog(), later, all);
  for (std::size_t k = 0; k < later.size(); ++k) {
    EXPECT_EQ(later[k].message, full.findings[k].message);
    EXPECT_EQ(later[k].hint, full.findings[k].hint);
  }
  // One at a time, as a report reads them (findings_view): the same text.
  const overlap_describer describer(full.loaded.value, builtin_catalog());
  auto fresh = check(full.loaded.value, builtin_catalog(), lean);
  for (std::size_t k = 0; k < fresh.size(); ++k) {
    describer.describe(fresh[k]);
    EXPECT_EQ(fresh[k].message, full.findings[k].message);
    EXPECT_EQ(fresh[k].hint, full.findings[k].hint);
  }
}

TEST(Check, KopsDefaultsInsideATailnetAreRoutedOverlaps) {
  auto c = run(R"(
networks:
  - {name: tailscale, type: tailscale}
clusters:
  - {name: prod-eu, distribution: kops}
connections:
  - [prod-eu, tailscale]
)");
  auto overlaps = c.of(rule::overlap);
  ASSERT_EQ(overlaps.size(), 2u);
  for (const auto* x : overlaps) {
    EXPECT_EQ(c.owner_of(*x, 0), "prod-eu");  // the cluster range is the cheaper side
    EXPECT_EQ(c.owner_of(*x, 1), "tailscale");
    EXPECT_EQ(c.loaded.value.owners[*x->routed_at].name, "prod-eu");
    EXPECT_NE(x->message.find("(kops default)"), std::string::npos) << x->message;
  }
  EXPECT_EQ(c.cidr(*overlaps[0], 0), "100.96.0.0/11");
  EXPECT_EQ(c.cidr(*overlaps[1], 0), "100.64.0.0/13");
  EXPECT_EQ(c.of(rule::shared_address_space).size(), 2u);
  // A network of type tailscale is not warned about being in shared space: that is what it is.
  for (const auto* x : c.of(rule::shared_address_space)) EXPECT_EQ(c.owner_of(*x, 0), "prod-eu");
}

TEST(Check, AMeshOfThreeSharedServiceRangesIsThreeOverlaps) {
  auto c = run(R"(
clusters:
  - {name: a, distribution: kubeadm, network: 10.1.0.0/16, pods: 10.2.0.0/16}
  - {name: b, distribution: kubeadm, network: 10.3.0.0/16, pods: 10.4.0.0/16}
  - {name: c, distribution: kubeadm, network: 10.5.0.0/16, pods: 10.6.0.0/16}
connections:
  - {between: [a, b, c], via: mesh, routes: [pods, services]}
)");
  EXPECT_EQ(c.of(rule::overlap).size(), 3u);
  EXPECT_EQ(c.of(rule::latent_overlap).size(), 0u);
}

TEST(Check, RoutesLimitWhatAConnectionCarries) {
  auto c = run(R"(
clusters:
  - {name: a, network: 10.1.0.0/16, pods: 10.2.0.0/16, services: 10.96.0.0/16}
  - {name: b, network: 10.3.0.0/16, pods: 10.4.0.0/16, services: 10.96.0.0/16}
connections:
  - {between: [a, b], routes: pods}
)");
  EXPECT_EQ(c.of(rule::overlap).size(), 0u);
  ASSERT_EQ(c.of(rule::latent_overlap).size(), 1u);
  EXPECT_NE(c.of(rule::latent_overlap)[0]->message.find("nothing routes both yet"), std::string::npos);
}

TEST(Check, AThirdOwnerThatSeesBothIsTheMeetingPoint) {
  auto c = run(R"(
networks:
  - {name: office, type: office, cidrs: 10.30.0.0/16}
clusters:
  - {name: a, network: 10.1.0.0/16, pods: 10.244.0.0/16, services: 10.96.0.0/20}
  - {name: b, network: 10.3.0.0/16, pods: 10.244.0.0/16, services: 10.97.0.0/20}
connections:
  - {between: [a, office], via: vpn, routes: pods}
  - {between: [b, office], via: vpn, routes: pods}
)");
  auto overlaps = c.of(rule::overlap);
  ASSERT_EQ(overlaps.size(), 1u);
  EXPECT_EQ(c.loaded.value.owners[*overlaps[0]->routed_at].name, "office");
  EXPECT_EQ(overlaps[0]->via.size(), 2u);
}

TEST(Check, RangesOfOneOwnerMustNotOverlap) {
  auto c = run(R"(
clusters:
  - {name: a, network: 10.0.0.0/16, pods: 10.0.128.0/17, services: 10.96.0.0/16}
)");
  auto internal = c.of(rule::overlap_internal);
  ASSERT_EQ(internal.size(), 1u);
  EXPECT_EQ(c.cidr(*internal[0], 0), "10.0.128.0/17");  // pods are cheaper to move than the network
  EXPECT_EQ(internal[0]->overlap, address_range(prefix::parse("10.0.128.0/17")));
}

TEST(Check, ServiceRangeSizeLimitsFollowKubeApiserver) {
  auto c = run(R"(
clusters:
  - {name: big4, services: 10.0.0.0/11}
  - {name: ok4, services: 10.32.0.0/12}
  - {name: big6, services: "fd00::/107"}
  - {name: ok6, services: "fd01::/108"}
  - {name: tiny, services: 10.64.0.0/30}
  - {name: small-ok, services: 10.64.1.0/29}
)");
  auto large = c.of(rule::service_range_too_large);
  ASSERT_EQ(large.size(), 2u);
  EXPECT_EQ(c.owner_of(*large[0], 0), "big4");
  EXPECT_EQ(c.owner_of(*large[1], 0), "big6");
  EXPECT_NE(large[0]->hint.find("10.0.0.0/12"), std::string::npos);
  auto small = c.of(rule::service_range_too_small);
  ASSERT_EQ(small.size(), 1u);
  EXPECT_EQ(c.owner_of(*small[0], 0), "tiny");
}

TEST(Check, AtMostOneServiceRangePerVersion) {
  auto c = run(R"(
clusters:
  - {name: two-v4, services: [10.96.0.0/16, 10.97.0.0/16]}
  - {name: dual, services: [10.98.0.0/16, "fd00::/112"]}
)");
  auto count = c.of(rule::service_range_count);
  ASSERT_EQ(count.size(), 1u);
  EXPECT_EQ(c.owner_of(*count[0], 0), "two-v4");
}

TEST(Check, PodCapacityCountsNodeBlocks) {
  // A /20 with /24 per node holds 16 nodes.
  auto c = run(R"(
clusters:
  - {name: full, pods: 10.1.0.0/20, node_cidr_mask: 24, nodes: 17}
  - {name: tight, pods: 10.2.0.0/20, node_cidr_mask: 24, nodes: 14}
  - {name: roomy, pods: 10.3.0.0/20, node_cidr_mask: 24, nodes: 12}
  - {name: two-ranges, pods: [10.4.0.0/20, 10.5.0.0/20], nodes: 20}
  - {name: openshift, distribution: openshift, network: 10.6.0.0/16, pods: 10.7.0.0/20, services: 172.31.0.0/16, nodes: 9}
)");
  auto capacity = c.of(rule::pod_capacity);
  ASSERT_EQ(capacity.size(), 3u);
  EXPECT_EQ(c.owner_of(*capacity[0], 0), "full");
  EXPECT_EQ(capacity[0]->level, severity::error);
  EXPECT_NE(capacity[0]->message.find("hold 16 node blocks of /24, fewer than its 17 nodes"), std::string::npos)
      << capacity[0]->message;
  EXPECT_EQ(c.owner_of(*capacity[1], 0), "tight");
  EXPECT_EQ(capacity[1]->level, severity::warning);
  // OpenShift's hostPrefix is /23: a /20 holds 8 nodes.
  EXPECT_EQ(c.owner_of(*capacity[2], 0), "openshift");
  EXPECT_EQ(capacity[2]->level, severity::error);
}

TEST(Check, NodeMaskMustFitThePodRange) {
  auto c = run(R"(
clusters:
  - {name: v4, pods: 10.1.0.0/24, node_cidr_mask: 23}
  - {name: v6, pods: "fd00:1::/48", node_cidr_mask_v6: 80}
  - {name: v6-ok, pods: "fd00:2::/56", node_cidr_mask_v6: 64}
)");
  auto masks = c.of(rule::node_mask_too_large);
  ASSERT_EQ(masks.size(), 2u);
  EXPECT_EQ(c.owner_of(*masks[0], 0), "v4");
  EXPECT_EQ(c.owner_of(*masks[1], 0), "v6");
}

TEST(Check, TheDnsAddressMustBeAServiceButNotTheFirst) {
  auto c = run(R"(
clusters:
  - {name: outside, services: 10.96.0.0/16, dns: 10.97.0.10}
  - {name: first, services: 10.98.0.0/16, dns: 10.98.0.1}
  - {name: fine, services: 10.99.0.0/16, dns: 10.99.0.10}
)");
  ASSERT_EQ(c.of(rule::dns_outside_service_range).size(), 1u);
  EXPECT_EQ(c.owner_of(*c.of(rule::dns_outside_service_range)[0], 0), "outside");
  ASSERT_EQ(c.of(rule::dns_is_kubernetes_service).size(), 1u);
  EXPECT_EQ(c.owner_of(*c.of(rule::dns_is_kubernetes_service)[0], 0), "first");
}

TEST(Check, CatalogBlocksFlagClusterRanges) {
  auto c = run(R"(
networks:
  - {name: lab, type: lab, cidrs: 192.0.2.0/24}
  - {name: cgnat-isp, type: isp, cidrs: 100.64.0.0/10}
clusters:
  - {name: a, network: 10.1.0.0/16, pods: 127.1.0.0/16, services: 172.17.0.0/16}
  - {name: gke, distribution: gke, network: 10.2.0.0/16, pods: 10.3.0.0/16}
  - {name: aks, distribution: aks, network: 10.4.0.0/16, pods: 10.5.0.0/16, services: 172.30.0.0/16}
)");
  ASSERT_EQ(c.of(rule::reserved_range).size(), 1u);
  EXPECT_EQ(c.of(rule::reserved_range)[0]->block->name, "loopback");
  EXPECT_FALSE(c.of(rule::reserved_range)[0]->block->source.empty());
  ASSERT_EQ(c.of(rule::docker_bridge).size(), 1u);
  ASSERT_EQ(c.of(rule::documentation_range).size(), 1u);  // networks too
  EXPECT_EQ(c.owner_of(*c.of(rule::documentation_range)[0], 0), "lab");
  EXPECT_EQ(c.of(rule::shared_address_space).size(), 0u);  // a network in shared space is its business
  // GKE's default service range is public space; the loopback pods are reserved, not "public".
  ASSERT_EQ(c.of(rule::public_range).size(), 1u);
  EXPECT_EQ(c.cidr(*c.of(rule::public_range)[0], 0), "34.118.224.0/20");
  ASSERT_EQ(c.of(rule::platform_reserved).size(), 1u);
  EXPECT_EQ(c.owner_of(*c.of(rule::platform_reserved)[0], 0), "aks");
}

TEST(Check, Ipv6NodesAndPodsMayBeGlobalButServicesMayNot) {
  auto c = run(R"(
clusters:
  - {name: eks6, network: "2600:1f14:a8e:4c00::/56", pods: "2600:1f14:a8e:4c80::/64", services: "fd00:10::/108"}
  - {name: odd, network: 10.1.0.0/16, services: "2001:db8:1::/108"}
  - {name: global, network: 10.2.0.0/16, services: "2a00:1450::/108"}
)");
  ASSERT_EQ(c.of(rule::public_range).size(), 1u);
  EXPECT_EQ(c.owner_of(*c.of(rule::public_range)[0], 0), "global");
  EXPECT_EQ(c.of(rule::documentation_range).size(), 1u);  // 2001:db8::/32 is its own finding
}

TEST(Check, TheHintMovesTheSideThePlanSectionLeavesFree) {
  constexpr std::string_view fleet_text = R"(
clusters:
  - {name: ours, network: 10.52.0.0/16, pods: 10.100.0.0/16, services: 10.200.0.0/20}
  - {name: theirs, network: 10.60.0.0/16, pods: 10.52.0.0/14, services: 10.201.0.0/20}
connections:
  - {between: [ours, theirs], routes: [network, pods]}
)";
  auto hint_with = [&](std::string_view plan) {
    auto c = run(std::string(fleet_text) + std::string(plan));
    auto overlaps = c.of(rule::overlap);
    EXPECT_EQ(overlaps.size(), 1u);
    return overlaps.empty() ? std::string() : overlaps[0]->hint;
  };
  EXPECT_NE(hint_with("").find("move the pods range of theirs (the cheaper side)"), std::string::npos);
  EXPECT_NE(hint_with("plan: {pin: [theirs]}").find("move the network range of ours (the pods range of theirs is pinned)"),
            std::string::npos);
  EXPECT_NE(hint_with("plan: {pin: [\"*/pods\", \"our*\"]}").find("both ranges are pinned"), std::string::npos);
}

TEST(Check, EksPicksItsServiceDefaultByTheVpc) {
  auto c = run(R"(
clusters:
  - {name: in-ten, distribution: eks, network: 10.1.0.0/16}
  - {name: elsewhere, distribution: eks, network: 192.168.0.0/20}
)");
  const auto& f = c.loaded.value;
  std::vector<std::string> services;
  for (const auto& r : f.ranges) {
    if (r.role == range_role::services) services.push_back(f.owners[r.owner].name + " " + r.cidr.to_string());
  }
  EXPECT_EQ(services, (std::vector<std::string>{"in-ten 172.20.0.0/16", "elsewhere 10.100.0.0/16"}));
  for (const auto& r : f.ranges) {
    if (r.role == range_role::services) {
      EXPECT_EQ(r.origin, range_origin::distribution_default);
    }
  }
}

TEST(Check, AnEmptyListKeepsTheDefaultOut) {
  auto c = run(R"(
clusters:
  - {name: explicit-none, distribution: aks, network: 10.1.0.0/16, pods: [], services: 10.2.0.0/16}
  - {name: null-means-default, distribution: aks, network: 10.3.0.0/16, pods: , services: 10.4.0.0/16}
)");
  std::vector<std::string> pods;
  for (const auto& r : c.loaded.value.ranges) {
    if (r.role == range_role::pods) pods.push_back(c.loaded.value.owners[r.owner].name + " " + r.cidr.to_string());
  }
  EXPECT_EQ(pods, std::vector<std::string>{"null-means-default 10.244.0.0/16"});
}

TEST(Check, FindingsAreSortedByLocation) {
  auto c = run(R"(
clusters:
  - {name: b, network: 10.1.0.0/16, pods: 10.1.0.0/17, services: 10.2.0.0/30}
  - {name: a, network: 10.3.0.0/16, pods: 10.3.0.0/17, services: 10.32.0.0/11}
)");
  for (std::size_t k = 1; k < c.findings.size(); ++k) {
    const auto& p = c.loaded.value.ranges[c.findings[k - 1].ranges[0]].where;
    const auto& q = c.loaded.value.ranges[c.findings[k].ranges[0]].where;
    EXPECT_LE(std::make_pair(p.line, p.column), std::make_pair(q.line, q.column));
  }
}


TEST(Check, PodCapacityIsReportedWhenThePodRangeHoldsNoNodeBlock) {
  // Issue 16 item 19: a /25 pod range under the default /24 node mask holds no block.
  auto c = run(R"(
clusters:
  - {name: tiny, network: 10.1.0.0/16, pods: 10.2.0.0/25, services: 10.3.0.0/16, nodes: 3}
  - {name: empty, network: 10.4.0.0/16, pods: 10.5.0.0/25, services: 10.6.0.0/16, nodes: 0}
)");
  auto capacity = c.of(rule::pod_capacity);
  ASSERT_EQ(capacity.size(), 1u);
  EXPECT_EQ(c.owner_of(*capacity[0], 0), "tiny");
  EXPECT_EQ(capacity[0]->level, severity::error);
  EXPECT_NE(capacity[0]->message.find("hold 0 node blocks"), std::string::npos) << capacity[0]->message;
}

TEST(Check, ANodeLocalDnsCacheAddressIsANoteNotAnError) {
  auto c = run(R"(
clusters:
  - {name: a, network: 10.1.0.0/16, pods: 10.2.0.0/16, services: 10.96.0.0/12, dns: 169.254.20.10}
)");
  auto dns = c.of(rule::dns_outside_service_range);
  ASSERT_EQ(dns.size(), 1u);
  EXPECT_EQ(dns[0]->level, severity::note);
  EXPECT_NE(dns[0]->hint.find("kube-dns"), std::string::npos) << dns[0]->hint;
}

// ---------------------------------------------------------------------------
// Routes (issue 15): a route is not a range.

TEST(CheckRoutes, ARouteToItsOwnDestinationIsNoOverlap) {
  // Before routes existed, a subnet route for a VPC was a range of its own and
  // overlapped the very VPC it advertises.
  auto c = run(R"(
networks:
  - name: tailscale
    type: tailscale
    routes:
      - {cidr: 10.10.0.0/16, to: prod-eu, advertised_by: router-eu}
      - {cidr: 10.20.0.0/16, advertised_by: router-us}   # leads to prod-us: it lies in its network
clusters:
  - {name: prod-eu, network: 10.10.0.0/16, pods: 10.11.0.0/16, services: 10.12.0.0/16}
  - {name: prod-us, network: 10.20.0.0/16, pods: 10.21.0.0/16, services: 10.22.0.0/16}
connections:
  - {between: [tailscale, prod-eu, prod-us], routes: [network]}
)");
  EXPECT_TRUE(c.findings.empty()) << c.findings.front().message;
  // The routes did not keep the tailnet's own ranges out.
  auto tailnet = *c.loaded.value.find_owner("tailscale");
  std::size_t own = 0;
  for (auto k : c.loaded.value.owners[tailnet].ranges) own += c.loaded.value.ranges[k].is_route() ? 0 : 1;
  EXPECT_EQ(own, 2u);
}

TEST(CheckRoutes, ARouteThatCoversAnotherOwnersRoutedRangeIsAConflict) {
  auto c = run(R"(
networks:
  - name: vpn
    cidrs: [10.8.0.0/24]
    routes:
      - {cidr: 10.48.0.0/13, to: prod, advertised_by: gw}
clusters:
  - {name: prod, network: 10.50.0.0/16, pods: 10.51.0.0/16, services: 172.20.0.0/16}
  - {name: batch, network: 10.60.0.0/16, pods: 10.52.0.0/16, services: 172.21.0.0/16}
  - {name: lab, network: 10.70.0.0/16, pods: 10.53.0.0/16, services: 172.22.0.0/16}
connections:
  - {between: [vpn, prod, batch], via: vpn}
)");
  auto conflicts = c.of(rule::route_conflict);
  ASSERT_EQ(conflicts.size(), 1u);  // batch's pods; prod's ranges are its own; lab is not on the VPN
  EXPECT_EQ(c.cidr(*conflicts[0], 0), "10.48.0.0/13");
  EXPECT_EQ(c.owner_of(*conflicts[0], 1), "batch");
  EXPECT_EQ(c.loaded.value.owners[*conflicts[0]->routed_at].name, "vpn");
  EXPECT_EQ(c.of(rule::overlap).size(), 0u);
  EXPECT_EQ(c.of(rule::latent_overlap).size(), 0u);
}

// The GKE case of issue 26: a branch behind the on-premises router is
// advertised over Cloud VPN inside the cluster's default pod range.
constexpr std::string_view branch_behind_onprem = R"(
networks:
  - {name: gcp-vpc, type: gcp-vpc, cidrs: 10.0.0.0/20}
  - name: onprem
    cidrs: [192.168.0.0/16]
    routes:
      - {cidr: 10.4.0.0/16, to: branch, advertised_by: onprem-router}
  - {name: branch, type: office, cidrs: 10.4.0.0/16}
clusters:
  - {name: gke-prod, distribution: gke, runs_in: gcp-vpc, network: 10.0.0.0/20, pods: [10.4.0.0/14, 10.20.0.0/16], services: 10.8.0.0/20}
connections:
  - name: cloud-vpn
    between: [gcp-vpc, onprem, gke-prod]
    via: vpn
    routes: [pods, services]
)";

TEST(CheckRoutes, ARangeTheConnectionWithdrawsMeetsNoRouteAcrossIt) {
  auto before = run(branch_behind_onprem);
  auto conflicts = before.of(rule::route_conflict);
  ASSERT_EQ(conflicts.size(), 1u);
  EXPECT_EQ(before.cidr(*conflicts[0], 1), "10.4.0.0/14");

  // The old default range withdrawn from the VPN (Cloud Router no longer advertises it): no conflict.
  std::string withdrawn(branch_behind_onprem);
  withdrawn += "    withdrawn: [10.4.0.0/14]\n";
  auto after = run(withdrawn);
  EXPECT_TRUE(after.of(rule::route_conflict).empty());
  EXPECT_TRUE(after.of(rule::overlap).empty());
  ASSERT_EQ(after.loaded.value.connections.size(), 1u);
  EXPECT_FALSE(after.loaded.value.connections[0].carries(prefix::parse("10.4.0.0/14")));
  EXPECT_TRUE(after.loaded.value.connections[0].carries(prefix::parse("10.20.0.0/16")));

  // A prefix that only overlaps the range withdraws none of it: the range is still carried.
  std::string narrower(branch_behind_onprem);
  narrower += "    withdrawn: [10.4.0.0/16]\n";
  EXPECT_EQ(run(narrower).of(rule::route_conflict).size(), 1u);
}

TEST(CheckRoutes, HostsTheClusterReachesDirectlyStillConflictWhateverTheVpnWithdraws) {
  std::string yaml(branch_behind_onprem);
  yaml += "    withdrawn: [10.4.0.0/14]\n  - {between: [gke-prod, branch], via: vpn, routes: [pods]}\n";
  auto c = run(yaml);
  EXPECT_TRUE(c.of(rule::route_conflict).empty());
  auto overlaps = c.of(rule::overlap);
  ASSERT_EQ(overlaps.size(), 1u);
  EXPECT_EQ(c.cidr(*overlaps[0], 0) + " " + c.cidr(*overlaps[0], 1), "10.4.0.0/14 10.4.0.0/16");
}

TEST(CheckRoutes, AClusterNetworkInheritsWhatItsNetworksConnectionWithdraws) {
  constexpr std::string_view yaml = R"(
networks:
  - {name: vpc, type: aws-vpc, cidrs: 10.0.0.0/16}
  - {name: office, type: office, cidrs: 10.0.64.0/24}
clusters:
  - {name: eks, runs_in: vpc, network: 10.0.0.0/17, pods: 100.64.0.0/16, services: 172.20.0.0/16}
connections:
  - {between: [vpc, office], via: vpn}
)";
  auto pairs = [](const checked& c) {
    std::vector<std::string> out;
    for (const auto* x : c.of(rule::overlap)) out.push_back(c.owner_of(*x, 0) + " " + c.owner_of(*x, 1));
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(pairs(run(yaml)), (std::vector<std::string>{"eks office", "vpc office"}));
  // The VPC's own /16 is still carried; the cluster's /17 inside it, carried as the VPC's, is not.
  std::string withdrawn(yaml);
  withdrawn.insert(withdrawn.rfind('}'), ", withdrawn: [10.0.0.0/17]");
  EXPECT_EQ(pairs(run(withdrawn)), (std::vector<std::string>{"vpc office"}));
}

TEST(CheckRoutes, AMoreSpecificRouteOfAnotherRouterStealsTraffic) {
  // tailscale/tailscale#16323: the more specific route wins, whatever its router reaches.
  auto c = run(R"(
networks:
  - name: tailscale
    type: tailscale
    routes:
      - {cidr: 10.10.0.0/16, advertised_by: router-eu}
      - {cidr: 10.10.42.0/24, advertised_by: router-us}
      - {cidr: 10.10.43.0/24, advertised_by: router-eu}   # the same router: a route of its own space
)");
  auto conflicts = c.of(rule::route_conflict);
  ASSERT_EQ(conflicts.size(), 1u);
  EXPECT_EQ(c.cidr(*conflicts[0], 0), "10.10.42.0/24");  // the more specific first
  EXPECT_EQ(c.cidr(*conflicts[0], 1), "10.10.0.0/16");
  EXPECT_NE(conflicts[0]->message.find("router-us"), std::string::npos) << conflicts[0]->message;
}

TEST(CheckRoutes, OnePrefixFromTwoRoutersIsADuplicateUnlessItIsFailover) {
  auto c = run(R"(
networks:
  - name: tailscale
    type: tailscale
    routes:
      - {cidr: 10.30.0.0/16, advertised_by: router-a}
      - {cidr: 10.30.0.0/16, advertised_by: router-b}
      - {cidr: 10.40.0.0/16, to: x, advertised_by: router-a}
      - {cidr: 10.40.0.0/16, to: x, advertised_by: router-b}   # failover: one destination
      - {cidr: 10.50.0.0/16, to: x, advertised_by: router-a}
      - {cidr: 10.50.0.0/16, to: y, advertised_by: router-b}
clusters:
  - {name: x, network: 10.0.0.0/9}
  - {name: y, network: 10.128.0.0/9}
)");
  auto duplicates = c.of(rule::duplicate_route);
  ASSERT_EQ(duplicates.size(), 2u);
  EXPECT_EQ(c.cidr(*duplicates[0], 0), "10.30.0.0/16");
  EXPECT_EQ(duplicates[0]->level, severity::warning);
  EXPECT_EQ(c.cidr(*duplicates[1], 0), "10.50.0.0/16");
  EXPECT_EQ(duplicates[1]->level, severity::error);  // two destinations
}

TEST(CheckRoutes, ARouteInsideTheOverlaysOwnSpace) {
  auto c = run(R"(
networks:
  - name: tailscale
    type: tailscale
    routes:
      - 100.100.0.0/16
      - fd7a:115c:a1e0:b1a:0:7:a1e:0/120    # 4via6: translated into the tailnet's space by design
      - 10.0.0.0/8
)");
  auto inside = c.of(rule::route_in_overlay);
  ASSERT_EQ(inside.size(), 1u);
  EXPECT_EQ(c.cidr(*inside[0], 0), "100.100.0.0/16");
  EXPECT_EQ(c.cidr(*inside[0], 1), "100.64.0.0/10");
}

TEST(CheckRoutes, AnEmptyCidrsListMeansNoneForANetworkToo) {
  auto c = run(R"(
networks:
  - {name: tailscale, type: tailscale, cidrs: []}
  - {name: laptops, type: tailscale}
clusters:
  - {name: prod-eu, distribution: kops}
connections:
  - [prod-eu, tailscale]
)");
  EXPECT_EQ(c.of(rule::overlap).size(), 0u);
  EXPECT_EQ(c.loaded.value.owners[*c.loaded.value.find_owner("tailscale")].ranges.size(), 0u);
  EXPECT_EQ(c.loaded.value.owners[*c.loaded.value.find_owner("laptops")].ranges.size(), 2u);
}

TEST(CheckRoutes, ARouteToAnUnknownOwnerIsAnErrorWithASuggestion) {
  fleet_loader loader(builtin_catalog());
  loader.add_text(R"(
networks:
  - name: vpn
    routes:
      - {cidr: 10.40.0.0/16, to: stagng}
      - {to: staging}
clusters:
  - {name: staging, network: 10.40.0.0/16}
)",
                  "t.yaml");
  auto loaded = loader.finish();
  ASSERT_EQ(loaded.diagnostics.size(), 2u);
  EXPECT_EQ(loaded.diagnostics[0].where.line, 5u);
  EXPECT_NE(loaded.diagnostics[0].message.find("did you mean 'staging'"), std::string::npos)
      << loaded.diagnostics[0].message;
  EXPECT_EQ(loaded.diagnostics[1].where.line, 6u);
  EXPECT_NE(loaded.diagnostics[1].message.find("needs 'cidr'"), std::string::npos) << loaded.diagnostics[1].message;
}

}  // namespace
}  // namespace cidrcheck
