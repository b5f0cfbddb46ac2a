#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {
namespace {

auto load(std::string_view text, input_limits limits = {}) -> fleet_load_result {
  fleet_loader loader(builtin_catalog(), limits);
  loader.add_text(text, "f.yaml");
  return loader.finish();
}

// The diagnostics as the CLI prints them, one string each (notes included).
auto printed(const fleet_load_result& r) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& d : r.diagnostics) out.push_back(format_diagnostic(d));
  return out;
}

auto has(const fleet_load_result& r, std::string_view code) -> bool {
  for (const auto& d : r.diagnostics) {
    if (d.code == code) return true;
  }
  return false;
}

TEST(FleetLoader, ReadsTheDocumentedFormat) {
  auto r = load(R"(version: 1
networks:
  - name: tailscale
    type: tailscale
  - name: office-berlin
    type: office
    cidrs: [192.168.0.0/16]
clusters:
  - name: prod-eu
    distribution: kops
    kubernetes: "1.29"
    network: [172.20.0.0/16]
    pods: [100.96.0.0/11]
    services: [100.64.0.0/13]
    node_cidr_mask: 24
    nodes: 180
connections:
  - between: [prod-eu, office-berlin]
    via: mesh
    routes: [pods, services]
  - between: [prod-eu, tailscale]
  - [prod-eu, office-berlin]
)");
  ASSERT_TRUE(r.ok()) << printed(r)[0];
  const auto& f = r.value;
  ASSERT_EQ(f.owners.size(), 3u);
  EXPECT_EQ(f.owners[2].kubernetes, (kube_version{1, 29}));
  EXPECT_EQ(f.owners[2].nodes, 180u);
  ASSERT_EQ(f.connections.size(), 3u);
  EXPECT_EQ(f.connections[0].routes.has(range_role::network), false);
  EXPECT_EQ(f.connections[0].routes.has(range_role::pods), true);
  EXPECT_EQ(f.connections[1].routes, role_set::all());
  // tailscale's ranges come from its type; the kops cluster declared all three of its own.
  EXPECT_EQ(f.ranges.size(), 1u + 3u + 2u);
  const auto& pods = f.ranges[f.owners[2].ranges[1]];
  EXPECT_EQ(pods.cidr.to_string(), "100.96.0.0/11");
  EXPECT_EQ(pods.where, (source_location{"f.yaml", 13, 12}));
  EXPECT_EQ(pods.end_column, 25u);
  EXPECT_EQ(pods.origin, range_origin::declared);
}

TEST(FleetLoader, ReadsIpamAndServiceCounts) {
  auto r = load(R"(clusters:
  - name: a
    cni: cilium
    ipam: cluster-pool
    service_count: 412
    load_balancer_count: 7
)");
  ASSERT_TRUE(r.ok()) << printed(r)[0];
  const auto& a = r.value.owners[0];
  EXPECT_EQ(a.ipam, "cluster-pool");
  EXPECT_EQ(a.service_count, 412u);
  EXPECT_EQ(a.load_balancer_count, 7u);
  EXPECT_EQ(a.service_count_where, (source_location{"f.yaml", 5, 20}));
  auto bad = load("clusters:\n  - {name: a, service_count: -1}\n");
  EXPECT_FALSE(bad.ok());
}

// The networking details runbooks need: a fixed word each, anything else an error that lists them.
TEST(FleetLoader, ReadsPoolEncapsulationRoutingModeAndKubeProxyMode) {
  auto r = load(R"(clusters:
  - {name: a, cni: calico, pool_encapsulation: ipip-cross-subnet, kube_proxy_mode: ipvs}
  - {name: b, cni: cilium, routing_mode: native, kube_proxy_mode: nftables}
)");
  ASSERT_TRUE(r.ok()) << printed(r)[0];
  EXPECT_EQ(r.value.owners[0].pool_encapsulation, "ipip-cross-subnet");
  EXPECT_EQ(r.value.owners[0].kube_proxy_mode, "ipvs");
  EXPECT_EQ(r.value.owners[0].routing_mode, "");
  EXPECT_EQ(r.value.owners[1].routing_mode, "native");
  EXPECT_EQ(r.value.owners[1].kube_proxy_mode, "nftables");
  auto bad = load(R"(clusters:
  - {name: a, pool_encapsulation: IPIPCrossSubnet, routing_mode: tunel, kube_proxy_mode: userspace}
)");
  EXPECT_EQ(printed(bad), (std::vector<std::string>{
                              "f.yaml:2:35: error: pool_encapsulation of cluster a must be one of ipip, "
                              "ipip-cross-subnet, vxlan, vxlan-cross-subnet, none, not \"IPIPCrossSubnet\"\n",
                              "f.yaml:2:66: error: routing_mode of cluster a must be one of tunnel, native, not "
                              "\"tunel\" (did you mean 'tunnel'?)\n",
                              "f.yaml:2:90: error: kube_proxy_mode of cluster a must be one of iptables, ipvs, "
                              "nftables, kernelspace, not \"userspace\"\n",
                          }));
}

TEST(FleetLoader, ReadsLabelsAndNamedPools) {
  auto r = load(R"(networks:
  - {name: vpc, cidrs: [10.64.0.0/16], labels: {site: eu, cloud: aws}}
clusters:
  - name: a
    labels:
      site: eu
      region: eu-west-1
      zone: 1
plan:
  pools:
    - 10.0.0.0/8
    - name: eu-aws
      cidrs: [10.64.0.0/12]
      for: {site: eu, cloud: aws, owner: "prod-*", role: [pods, services]}
    - {name: anything, cidrs: 10.128.0.0/9}
)");
  ASSERT_TRUE(r.ok()) << printed(r)[0];
  using labels = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(r.value.owners[0].labels, (labels{{"site", "eu"}, {"cloud", "aws"}}));
  EXPECT_EQ(r.value.owners[1].labels, (labels{{"site", "eu"}, {"region", "eu-west-1"}, {"zone", "1"}}));
  const auto& s = r.value.plan;
  for (const auto& role_pools : s.pools) EXPECT_EQ(role_pools, std::vector<prefix>{prefix::parse("10.0.0.0/8")});
  ASSERT_EQ(s.named_pools.size(), 2u);
  const auto& eu = s.named_pools[0];
  EXPECT_EQ(eu.name, "eu-aws");
  EXPECT_EQ(eu.cidrs, std::vector<prefix>{prefix::parse("10.64.0.0/12")});
  EXPECT_EQ(eu.selector.labels, (labels{{"site", "eu"}, {"cloud", "aws"}}));
  EXPECT_EQ(eu.selector.owner, "prod-*");
  ASSERT_TRUE(eu.selector.roles);
  EXPECT_FALSE(eu.selector.roles->names(range_role::network));
  EXPECT_TRUE(eu.selector.roles->names(range_role::pods));
  EXPECT_EQ(eu.selector.specificity(), 4u);
  EXPECT_EQ(eu.where.line, 12u);
  EXPECT_EQ(s.named_pools[1].selector.specificity(), 0u);
  // The mapping form takes named pools under `named:`, beside role pools that differ.
  auto m = load(R"(clusters:
  - {name: a, network: 10.64.0.0/20}
plan:
  pools:
    pods: [10.0.0.0/9]
    named:
      - {name: eu, cidrs: [10.128.0.0/12], for: {site: eu}}
)");
  ASSERT_TRUE(m.ok()) << printed(m)[0];
  ASSERT_EQ(m.value.plan.named_pools.size(), 1u);
  EXPECT_EQ(m.value.plan.pools[1], std::vector<prefix>{prefix::parse("10.0.0.0/9")});
}

TEST(FleetLoader, BadLabelsAndPoolsAreErrorsAtTheirPosition) {
  auto r = load(R"(clusters:
  - {name: a, labels: [eu]}
  - {name: b, labels: {role: x, site: {nested: 1}}}
plan:
  pools:
    - {name: eu, cidrs: [10.64.0.0/12], for: {site: eu, role: pod}}
    - {name: eu, cidrs: [10.80.0.0/12]}
    - {cidrs: [10.96.0.0/12]}
    - {name: x, cidr: [10.96.0.0/12]}
)");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(printed(r), (std::vector<std::string>{
                            "f.yaml:2:23: error: labels of cluster a must be a mapping, not a list\n",
                            "f.yaml:3:24: error: labels of cluster b: 'role' is no label: a pool's for: reads it as "
                            "the owner's name or the range's role\n",
                            "f.yaml:3:39: error: labels of cluster b site must be a value, not a mapping\n",
                            "f.yaml:6:63: error: pool eu for role: unknown role 'pod' (network, pods, services or all) "
                            "(did you mean 'pods'?)\n",
                            "f.yaml:7:14: error: duplicate pool name 'eu'\n"
                            "f.yaml:6:7: note: 'eu' is first declared here\n",
                            "f.yaml:8:7: error: a pool needs a name\n",
                            "f.yaml:9:7: error: pool x needs cidrs\n",
                            "f.yaml:9:17: error: unknown key 'cidr' in a pool (did you mean 'cidrs'?)\n",
                        }));
}

TEST(FleetLoader, ASingleCidrStandsForAList) {
  auto r = load("clusters:\n  - {name: a, pods: 10.0.0.0/16, services: 10.1.0.0/16}\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value.ranges.size(), 2u);
}

TEST(FleetLoader, ReportsEveryProblemWithItsPosition) {
  auto r = load(R"(version: 1
clusters:
  - name: a
    distribuion: kops
    pods: 10.0.0.1/24
    nodes: many
  - name: a
    services: [10.96.0.0/12, "10.300.0.0/16"]
connections:
  - [a, ofice]
)");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(printed(r), (std::vector<std::string>{
                            "f.yaml:4:5: error: unknown key 'distribuion' in cluster a (did you mean 'distribution'?)\n",
                            "f.yaml:5:11: error: pods of cluster a: invalid prefix \"10.0.0.1/24\": host bits set (did "
                            "you mean 10.0.0.0/24?)\n",
                            "f.yaml:6:12: error: nodes must be a whole number, not \"many\"\n",
                            "f.yaml:7:11: error: duplicate name 'a': every cluster and network needs its own\n"
                            "f.yaml:3:5: note: 'a' is first declared here\n",
                            "f.yaml:10:9: error: connection names 'ofice', which is no cluster or network\n",
                        }));
}

// Each section's key table is the list both of its unknown-key errors (the
// suggestion comes from that section's keys) and of the keys it reads.
TEST(FleetLoader, EachSectionRefusesKeysItsTableLacksWithASuggestionFromIt) {
  auto r = load(R"(version: 1
clusers: []
clusters:
  - {name: a, pods: [10.1.0.0/16], nodez: 3}
networks:
  - name: n
    cidr: 10.2.0.0/16
    routes: [{cidrs: 10.3.0.0/16, to: a}]
connections:
  - {betwen: [a, n]}
plan:
  headrom: 2
  pools: {pod: [10.64.0.0/10]}
)");
  EXPECT_EQ(printed(r),
            (std::vector<std::string>{
                "f.yaml:2:1: error: unknown key 'clusers' in the fleet file (did you mean 'clusters'?)\n",
                "f.yaml:4:36: error: unknown key 'nodez' in cluster a (did you mean 'nodes'?)\n",
                "f.yaml:7:5: error: unknown key 'cidr' in network n (did you mean 'cidrs'?)\n",
                "f.yaml:8:14: error: a route of network n needs 'cidr', the prefix it carries\n",
                "f.yaml:8:15: error: unknown key 'cidrs' in a route of network n (did you mean 'cidr'?)\n",
                "f.yaml:10:5: error: a connection needs 'between', the list of owners it connects\n",
                "f.yaml:10:6: error: unknown key 'betwen' in a connection (did you mean 'between'?)\n",
                "f.yaml:12:3: error: unknown key 'headrom' in plan (did you mean 'headroom'?)\n",
                "f.yaml:13:11: error: unknown key 'pod' in plan pools (did you mean 'pods'?)\n",
            }));
}

// A key a section does not have is refused, and its value is not read as
// another section's key (a network's `pods`, a cluster's `cidrs`).
TEST(FleetLoader, AKeyOfAnotherKindOfOwnerIsRefusedNotRead) {
  auto r = load(R"(networks:
  - {name: n, cidrs: [10.0.0.0/16], pods: [10.9.0.1/16]}
clusters:
  - {name: a, pods: [10.1.0.0/16], cidrs: [10.8.0.0/16]}
)");
  EXPECT_EQ(printed(r),
            (std::vector<std::string>{
                "f.yaml:2:37: error: unknown key 'pods' in network n\n",  // no host-bits error: not read
                "f.yaml:4:36: error: unknown key 'cidrs' in cluster a\n",
            }));
  EXPECT_EQ(r.value.ranges.size(), 2u);  // n's cidrs and a's pods, nothing of the refused keys
}

TEST(FleetLoader, PointsAtTheBadCharacterOfAQuotedCidr) {
  auto r = load("clusters:\n  - {name: a, services: [\"10.300.0.0/16\"]}\n");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  // The scalar starts at column 26 (the quote); "300" is 3 bytes into the CIDR.
  EXPECT_EQ(r.diagnostics[0].where, (source_location{"f.yaml", 2, 30}));
  EXPECT_EQ(r.diagnostics[0].code, "invalid-cidr");
}

TEST(FleetLoader, SuggestsTheClosestOwnerForAnUnknownConnectionMember) {
  auto r = load("networks:\n  - {name: office-berlin, cidrs: 10.1.0.0/16}\n  - {name: vpn, cidrs: 10.2.0.0/16}\n"
                "connections:\n  - [office-berlni, vpn]\n");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(format_diagnostic(r.diagnostics[0]),
            "f.yaml:5:6: error: connection names 'office-berlni', which is no cluster or network (did you mean "
            "'office-berlin'?)\n");
}

TEST(FleetLoader, RejectsWrongTypes) {
  auto r = load("clusters: {name: a}\n");
  EXPECT_EQ(printed(r), std::vector<std::string>{"f.yaml:1:11: error: clusters must be a list, not a mapping\n"});
  r = load("clusters:\n  - name: [a, b]\n");
  EXPECT_EQ(printed(r), std::vector<std::string>{"f.yaml:2:11: error: name must be a value, not a list\n"});
  r = load("version: 2\nclusters: []\n");
  EXPECT_TRUE(has(r, "version"));
  r = load("clusters:\n  - {name: a, kubernetes: latest}\n");
  EXPECT_TRUE(has(r, "type"));
  r = load("connections:\n  - {between: [a], via: x}\nclusters:\n  - {name: a, pods: 10.0.0.0/8}\n");
  EXPECT_TRUE(has(r, "connection-members"));
  r = load("clusters:\n  - {name: a, pods: 10.0.0.0/8}\nconnections:\n  - {between: [a, a], routes: [pods, svc]}\n");
  EXPECT_TRUE(has(r, "unknown-role"));
}

TEST(FleetLoader, WithdrawnPrefixesAreCidrsOfAConnectionThatCarriesRealRanges) {
  const std::string owners = "clusters:\n  - {name: a, pods: 10.0.0.0/16}\n  - {name: b, pods: 10.1.0.0/16}\n";
  auto r = load(owners + "connections:\n  - {between: [a, b], via: vpn, withdrawn: [10.0.0.0/17, 10.1.0.0/16]}\n");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.value.connections[0].withdrawn.size(), 2u);
  EXPECT_EQ(r.value.connections[0].withdrawn[1].to_string(), "10.1.0.0/16");
  r = load(owners + "connections:\n  - {between: [a, b], withdrawn: 10.0.0.1/16}\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics[0].where.line, 5u);
  EXPECT_EQ(r.diagnostics[0].where.column, 34u);
  r = load(owners + "connections:\n  - {between: [a, b], withdrawn: [10.0.0.0/16], via: nat}\n");
  EXPECT_EQ(printed(r), std::vector<std::string>{
                            "f.yaml:5:23: error: a translated connection (via nat) carries no real range, so it has "
                            "none to withdraw: withdraw the route on the connection that carries it\n"});
}

TEST(FleetLoader, ReportsBadYamlWithItsPosition) {
  auto r = load("clusters:\n  - name: a\n    pods: [10.0.0.0/8\n");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].code, "yaml-syntax");
  EXPECT_EQ(r.diagnostics[0].where.line, 4u);
  r = load("clusters:\n\t- name: a\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.diagnostics[0].message.find("tabs"), std::string::npos) << r.diagnostics[0].message;
}

TEST(FleetLoader, ReportsDuplicateKeys) {
  auto r = load("clusters:\n  - name: a\n    pods: 10.0.0.0/16\n    pods: 10.1.0.0/16\n");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(format_diagnostic(r.diagnostics[0]),
            "f.yaml:4:5: error: duplicate key 'pods' in a cluster\nf.yaml:3:5: note: 'pods' first appears here\n");
}

TEST(FleetLoader, AppliesAnchorsAliasesAndMergeKeys) {
  auto r = load(R"(
x-defaults: &defaults
  distribution: kubeadm
  node_cidr_mask: 26
clusters:
  - <<: *defaults
    name: a
    pods: 10.0.0.0/16
  - <<: *defaults
    name: b
    node_cidr_mask: 25
    pods: 10.1.0.0/16
)");
  // x-defaults is an extension field: a place for the anchor, ignored.
  ASSERT_TRUE(r.ok()) << format_diagnostic(r.diagnostics.at(0));
  EXPECT_EQ(r.value.owners[0].type, "kubeadm");
  EXPECT_EQ(r.value.owners[0].node_cidr_mask, 26);
  EXPECT_EQ(r.value.owners[1].node_cidr_mask, 25);  // an explicit key wins over a merged one
}

TEST(FleetLoader, OnlyTopLevelKeysThatStartWithXAreExtensionFields) {
  auto r = load("x-anchors: {a: 1}\ny-anchors: {a: 1}\nclusters:\n  - {name: a, x-note: 1}\n");
  ASSERT_EQ(r.diagnostics.size(), 2u);
  EXPECT_EQ(format_diagnostic(r.diagnostics[0]), "f.yaml:2:1: error: unknown key 'y-anchors' in the fleet file\n");
  EXPECT_EQ(r.diagnostics[1].code, "unknown-key");
  EXPECT_EQ(r.diagnostics[1].where.line, 4u);
}

// Found by the fleet fuzzer: YAML also ends a line at a lone CR, NEL, LS and
// PS, editors and the plan writer do not, and a planned file came out broken.
TEST(FleetLoader, RefusesLineBreaksOnlyYamlCounts) {
  for (std::string_view brk : {"\r", "\xC2\x85", "\xE2\x80\xA8", "\xE2\x80\xA9"}) {
    auto r = load("clusters:\n  - name: a" + std::string(brk) + "    pods: 10.0.0.0/16\n");
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].code, "line-break");
    EXPECT_EQ(r.diagnostics[0].where, (source_location{"f.yaml", 2, 12}));
    EXPECT_NE(r.diagnostics[0].message.find("end lines with LF or CRLF"), std::string::npos);
  }
  EXPECT_TRUE(load("clusters:\r\n  - name: a\r\n    pods: 10.0.0.0/16\r\n").ok());
}

TEST(FleetLoader, RefusesUtf16WithAClearMessage) {
  auto r = load(std::string("\xFF\xFE" "c\0l\0", 6));
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].where, (source_location{"f.yaml", 1, 1}));
  EXPECT_NE(r.diagnostics[0].message.find("UTF-16"), std::string::npos) << r.diagnostics[0].message;
}

// Each mapping of x-chain merges the one before it: links of aliases, not
// nesting, but each link is a level of recursion for the reader, so the chain
// counts against max-depth and a long one cannot exhaust the stack.
TEST(FleetLoader, BoundsMergeKeysWithinMergeKeysByMaxDepth) {
  auto chain = [](int links) {
    std::string text = "x-chain:\n  - &m0 {distribution: kubeadm}\n";
    for (int k = 1; k <= links; ++k) text += "  - &m" + std::to_string(k) + " {<<: *m" + std::to_string(k - 1) + "}\n";
    return text + "clusters:\n  - {name: a, <<: *m" + std::to_string(links) + "}\n";
  };
  // The cluster's merge and 63 more: 64 levels, the limit.
  auto r = load(chain(63));
  ASSERT_TRUE(r.ok()) << printed(r)[0];
  EXPECT_EQ(r.value.owners[0].type, "kubeadm");

  r = load(chain(64));
  ASSERT_TRUE(has(r, "limit"));
  EXPECT_EQ(printed(r)[0], "f.yaml:3:10: error: merge keys (<<) nest deeper than the max-depth limit of 64 levels\n");

  // Limits raised far enough to let 30,000 links through the parser: the reader
  // stops at max-depth rather than recursing 30,000 deep.
  input_limits raised;
  raised.max_depth = 100;
  raised.max_nodes = raised.max_file_bytes = std::size_t{1} << 40;
  r = load(chain(30'000), raised);
  ASSERT_TRUE(has(r, "limit"));
  EXPECT_NE(printed(r)[0].find("max-depth limit of 100 levels"), std::string::npos) << printed(r)[0];
}

TEST(FleetLoader, ReadsJsonWhereYamlIsExpected) {
  auto r = load(R"({"version": 1, "clusters": [{"name": "a", "pods": ["10.0.0.0/16"]}]})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value.ranges[0].where, (source_location{"f.yaml", 1, 52}));
}

TEST(FleetLoader, CountsColumnsInBytes) {
  // "é" is two bytes: libyaml counts it as one column (27), diagnostics count bytes (28).
  auto r = load("clusters:\n  - {name: \"caf\xC3\xA9\" , pods: 10.0.0.1/8}\n");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].where, (source_location{"f.yaml", 2, 28}));
  r = load("\xEF\xBB\xBF" "clusters: [{name: a, pods: 10.0.0.1/8}]\n");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].where.column, 31u);  // after the 3-byte byte-order mark
}

TEST(FleetLoader, ToleratesByteOrderMarksAndCrlf) {
  auto r = load("\xEF\xBB\xBFversion: 1\r\nclusters:\r\n  - name: a\r\n    pods: 10.0.0.0/16\r\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value.ranges[0].where.line, 4u);
}

TEST(FleetLoader, RejectsBytesThatAreNotUtf8) {
  auto r = load("clusters:\n  - name: \xff\xfe\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics[0].code, "yaml-syntax");
  EXPECT_EQ(r.diagnostics[0].where.line, 2u);
}

TEST(FleetLoader, ReadsSeveralDocumentsAsOneFleet) {
  auto r = load("clusters:\n  - {name: a, pods: 10.0.0.0/16}\n---\nclusters:\n  - {name: b, pods: 10.1.0.0/16}\n"
                "connections:\n  - [a, b]\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value.owners.size(), 2u);
  EXPECT_EQ(r.value.connections.size(), 1u);
}

TEST(FleetLoader, ResolvesConnectionsAcrossSources) {
  fleet_loader loader(builtin_catalog());
  loader.add_text("clusters:\n  - {name: a, pods: 10.0.0.0/16}\n", "one.yaml");
  loader.add_text("clusters:\n  - {name: b, pods: 10.1.0.0/16}\nconnections:\n  - [a, b]\n", "two.yaml");
  auto r = loader.finish();
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.files, (std::vector<std::string>{"one.yaml", "two.yaml"}));
  EXPECT_EQ(r.value.connections.size(), 1u);
}

TEST(FleetLoader, AnEmptyFleetIsAnError) {
  EXPECT_TRUE(has(load(""), "empty-input"));
  EXPECT_TRUE(has(load("version: 1\n"), "empty-input"));
}

TEST(FleetLoader, WarnsAboutAnUnknownDistribution) {
  auto r = load("clusters:\n  - {name: a, distribution: kubadm, pods: 10.0.0.0/16}\n");
  ASSERT_TRUE(r.ok());  // a warning, not an error
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(format_diagnostic(r.diagnostics[0]),
            "f.yaml:2:29: warning: unknown distribution 'kubadm' of cluster a: no defaults apply (did you mean "
            "'kubeadm'?)\n");
}

TEST(FleetLoader, EnforcesEveryLimitByName) {
  input_limits limits;
  limits.max_depth = 4;
  auto r = load("clusters:\n  - name: a\n    pods: [[[[10.0.0.0/8]]]]\n", limits);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.diagnostics[0].message.find("max-depth limit of 4"), std::string::npos);

  limits = {};
  limits.max_file_bytes = 10;
  r = load("clusters: []\n", limits);
  EXPECT_NE(r.diagnostics[0].message.find("max-file-bytes limit of 10"), std::string::npos);

  limits = {};
  limits.max_owners = 1;
  r = load("clusters:\n  - {name: a}\n  - {name: b}\n", limits);
  EXPECT_NE(r.diagnostics[0].message.find("max-owners limit of 1"), std::string::npos);

  limits = {};
  limits.max_ranges = 2;
  r = load("clusters:\n  - {name: a, pods: [10.0.0.0/16, 10.1.0.0/16, 10.2.0.0/16]}\n", limits);
  EXPECT_NE(r.diagnostics[0].message.find("max-ranges limit of 2"), std::string::npos);

  limits = {};
  limits.max_nodes = 5;
  r = load("clusters:\n  - {name: a, pods: [10.0.0.0/16, 10.1.0.0/16, 10.2.0.0/16]}\n", limits);
  EXPECT_NE(r.diagnostics[0].message.find("max-nodes limit"), std::string::npos);
}

TEST(FleetLoader, SurvivesAnAliasBomb) {
  // Each level doubles the aliases: walking it all would visit 2^30 nodes.
  std::string text = "a0: &a0 [10.0.0.0/8, 10.0.0.0/8]\n";
  for (int k = 1; k <= 30; ++k) {
    text += "a" + std::to_string(k) + ": &a" + std::to_string(k) + " [*a" + std::to_string(k - 1) + ", *a" +
            std::to_string(k - 1) + "]\n";
  }
  text += "clusters:\n  - name: x\n    pods: *a30\n";
  auto r = load(text);
  ASSERT_FALSE(r.ok());
  // Refused while parsing, at the alias whose expansion passes max-nodes; nothing is walked.
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].code, "limit");
  EXPECT_NE(r.diagnostics[0].message.find("max-nodes limit of 5000000 nodes with its aliases expanded"),
            std::string::npos);
}

TEST(FleetLoader, ReadsSuppressionsFromEveryDocument) {
  fleet_loader loader(builtin_catalog());
  loader.add_text(R"(clusters:
  - {name: a, pods: 10.0.0.0/16}
suppressions:
  - rule: latent-overlap
    entities: [a/pods, b]
    reason: never peered
    expires: 2026-06-30
)",
                  "one.yaml");
  loader.add_text("clusters: [{name: b, pods: 10.0.0.0/16}]\nsuppressions: [{rule: CIDR120, entities: b, reason: x}]\n",
                  "two.yaml");
  auto r = loader.finish();
  ASSERT_TRUE(r.ok()) << printed(r)[0];
  ASSERT_EQ(r.suppressions.size(), 2u);
  EXPECT_EQ(r.suppressions[0].id, rule::latent_overlap);
  EXPECT_EQ(r.suppressions[0].where, (source_location{"one.yaml", 4, 11}));
  EXPECT_EQ(r.suppressions[0].entities.size(), 2u);
  EXPECT_EQ(r.suppressions[1].id, rule::well_known_default);
  EXPECT_EQ(r.suppressions[1].where.file, "two.yaml");
  EXPECT_FALSE(r.suppressions[1].expires);
}

TEST(FleetLoader, ReportsBadSuppressionsAtTheirPosition) {
  auto r = load(R"(clusters: [{name: a, pods: 10.0.0.0/16}]
suppressions:
  - {rule: overlap, entities: [a/pod], reason: x}
  - {rule: overlap, entities: [a], expires: 2026-02-30, reason: y}
  - {rule: overlap, entities: [a]}
)");
  EXPECT_EQ(printed(r),
            (std::vector<std::string>{
                "f.yaml:3:32: error: entity 'a/pod' must be OWNER or OWNER/ROLE, with ROLE network, pods or services "
                "(did you mean 'pods'?)\n",
                "f.yaml:4:45: error: expires must be a date, YYYY-MM-DD, not \"2026-02-30\"\n",
                "f.yaml:5:5: error: a suppression needs 'reason', why the finding is accepted\n",
            }));
  EXPECT_TRUE(r.suppressions.empty());
}

TEST(FleetLoader, AFilledInRangeSpansTheKeyThatBroughtIt) {
  auto r = load("clusters:\n  - {name: a, distribution: kops}\n");
  ASSERT_TRUE(r.ok());
  ASSERT_FALSE(r.value.ranges.empty());
  // "kops" starts at column 29: the range points at it, one past its end is 33.
  EXPECT_EQ(r.value.ranges[0].where, (source_location{"f.yaml", 2, 29}));
  EXPECT_EQ(r.value.ranges[0].end_column, 33u);
}

}  // namespace
// A name is printed in reports, annotations and on stderr: one that could forge
// a line (LF, CR), a terminal escape (ESC), or is empty or blank is refused at
// its position, for clusters, networks and connections alike.
TEST(FleetLoader, RefusesNamesWithControlCharactersOrNothingInThem) {
  auto r = load("clusters:\n  - {name: \"a\\n::error::forged\", pods: 10.0.0.0/16}\n"
                "  - {name: \"\", pods: 10.1.0.0/16}\n"
                "networks:\n  - {name: \"  \", cidrs: 10.2.0.0/16}\n"
                "  - {name: \"b\\e[31m\", cidrs: 10.3.0.0/16}\n"
                "  - {name: \"c\\0d\", cidrs: 10.4.0.0/16}\n"
                "  - {name: ok, cidrs: 10.5.0.0/16}\n"
                "connections:\n  - {between: [ok, ok2], name: \"x\\ry\"}\n");
  EXPECT_FALSE(r.ok());
  auto lines = printed(r);
  std::vector<std::string> invalid;
  for (const auto& line : lines) {
    if (line.find("invalid name") != std::string::npos) invalid.push_back(line);
    EXPECT_EQ(line.find('\x1b'), std::string::npos) << line;
    EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1) << line;
  }
  ASSERT_EQ(invalid.size(), 6u) << ::testing::PrintToString(lines);
  EXPECT_EQ(invalid[0], "f.yaml:2:12: error: invalid name \"a\\x0a::error::forged\": a name cannot hold a control "
                        "character (\\x0a at byte 2)\n");
  EXPECT_NE(invalid[1].find("f.yaml:3:"), std::string::npos);
  EXPECT_NE(invalid[1].find("a name cannot be empty"), std::string::npos);
  EXPECT_NE(invalid[2].find("a name cannot be only blanks"), std::string::npos);
  EXPECT_NE(invalid[3].find("\\x1b[31m"), std::string::npos);
  EXPECT_NE(invalid[4].find("\\x00"), std::string::npos);
  EXPECT_NE(invalid[5].find("x\\x0dy"), std::string::npos);
}

// Issue 28, item 26: names of only invisible characters are refused; names that
// differ only by one print alike, a warning at the second that names the character.
TEST(FleetLoader, NamesThatShowNothingAreRefusedAndNamesThatPrintAlikeAreAWarning) {
  auto blank = load("clusters:\n  - {name: \"\\u00A0\\u200B\", pods: 10.0.0.0/16}\n");
  ASSERT_FALSE(blank.ok());
  EXPECT_EQ(blank.diagnostics.front().code, diag::invalid_name);
  EXPECT_NE(blank.diagnostics.front().message.find("only blanks and zero-width characters"), std::string::npos);
  auto alike = load("clusters:\n  - {name: prod, pods: 10.0.0.0/16}\n  - {name: \"pro\\u200Bd\", pods: 10.1.0.0/16}\n"
                    "  - {name: \"a\\u00A0b\", pods: 10.2.0.0/16}\n  - {name: a b, pods: 10.3.0.0/16}\n");
  ASSERT_TRUE(alike.ok());
  std::vector<std::string> warnings;
  for (const auto& d : alike.diagnostics) warnings.push_back(to_string(d.where) + " " + d.code + " " + d.message);
  EXPECT_EQ(warnings, (std::vector<std::string>{
                          "f.yaml:3:5 lookalike-name cluster pro\u200Bd looks like cluster prod (f.yaml:2:5): the names "
                          "differ only by invisible characters or the kind of blank (U+200B), so reports print them "
                          "alike; rename one",
                          "f.yaml:5:5 lookalike-name cluster a b looks like cluster a\u00A0b (f.yaml:4:5): the names "
                          "differ only by invisible characters or the kind of blank (U+00A0), so reports print them "
                          "alike; rename one"}));
}

// Warnings quote names from the input too: printed, they stay one line without escapes.
TEST(FleetLoader, PrintsWarningsWithTheInputsControlCharactersEscaped) {
  auto r = load("clusters:\n  - {name: a, distribution: \"k3s\\n::stop-commands::x\\e[2J\", pods: 10.0.0.0/16}\n");
  auto lines = printed(r);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].find("\n::"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("unknown distribution 'k3s\\x0a::stop-commands::x\\x1b[2J'"), std::string::npos) << lines[0];
}

}  // namespace cidrcheck
