// Plans made of operations: the cases of issue 13's "Done when" on small
// fleets, and invariants on random fleets with random distributions (the
// applied plan checks clean, shared VPCs never split, no cluster replaced
// twice, every range changed at most once, the cost is the operations' sum).

#include "../unit/random.hpp"

#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/iostream.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace cidrcheck {
namespace {

struct planned {
  fleet model;
  plan_result result;

  auto kinds() const -> std::vector<std::string> {
    std::vector<std::string> out;
    for (const auto& op : result.operations) {
      std::string owners;
      for (auto k : op.owners) owners += (owners.empty() ? "" : ",") + model.owners[k].name;
      out.push_back(owners + " " + op.kind);
    }
    return out;
  }
  auto steps_text() const -> std::string {
    std::string out;
    for (const auto& op : result.operations) {
      for (const auto& s : op.steps) out += s.text + "\n";
    }
    return out;
  }
};

auto run(std::string_view yaml) -> planned {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "t.yaml");
  auto loaded = loader.finish();
  EXPECT_TRUE(loaded.ok()) << (loaded.diagnostics.empty() ? "" : format_diagnostic(loaded.diagnostics[0]));
  auto result = plan(loaded.value, builtin_catalog());
  return {std::move(loaded.value), std::move(result)};
}

TEST(PlanOperations, KubeadmServicesMoveNotEks) {
  auto p = run(R"(
clusters:
  - {name: shop, distribution: eks, kubernetes: "1.30", network: 10.20.0.0/16, services: 10.100.0.0/16}
  - {name: ops, distribution: kubeadm, kubernetes: "1.33", network: 10.30.0.0/16, pods: 10.31.0.0/16, services: 10.100.0.0/16}
connections:
  - {between: [shop, ops], via: mesh, routes: [pods, services]}
)");
  ASSERT_TRUE(p.result.complete());
  EXPECT_EQ(p.kinds(), std::vector<std::string>{"ops service-cidr-api"});
}

TEST(PlanOperations, EksNetworkAndServicesConflictsAreOneReplacement) {
  auto p = run(R"(
networks:
  - {name: office, type: office, cidrs: [10.40.0.0/16, 10.100.0.0/16]}
clusters:
  - {name: billing, distribution: eks, kubernetes: "1.31", network: 10.40.0.0/16, services: 10.100.0.0/16}
connections:
  - {between: [billing, office], via: vpn}
)");
  ASSERT_TRUE(p.result.complete());
  EXPECT_EQ(p.kinds(), std::vector<std::string>{"billing replacement-cluster"});
  EXPECT_EQ(p.result.operations[0].changes.size(), 2u);
  EXPECT_EQ(p.result.total_cost, p.result.operations[0].cost);
}

TEST(PlanOperations, TwoClustersInOneVpcMoveWithOneNetworkOperation) {
  auto p = run(R"(
networks:
  - {name: main-vpc, type: vpc, cidrs: [10.50.0.0/16], movable: true}
  - {name: partner, type: peer, cidrs: [10.50.0.0/16]}
clusters:
  - {name: api, distribution: kubeadm, network: 10.50.0.0/17, pods: 10.60.0.0/16, services: 10.61.0.0/16}
  - {name: jobs, distribution: kubeadm, network: 10.50.128.0/17, pods: 10.62.0.0/16, services: 10.63.0.0/16}
connections:
  - {between: [main-vpc, partner], via: peering}
  - {between: [api, partner], via: peering, routes: [network]}
  - {between: [jobs, partner], via: peering, routes: [network]}
)");
  ASSERT_TRUE(p.result.complete());
  EXPECT_EQ(p.kinds(), std::vector<std::string>{"main-vpc,api,jobs new-vpc"});
  // One new VPC, and both clusters' networks inside it where they were.
  auto applied = apply_plan(p.model, p.result);
  prefix vpc = applied.ranges[applied.owners[0].ranges[0]].cidr;
  for (std::uint32_t c : {2u, 3u}) {
    for (auto k : applied.owners[c].ranges) {
      if (applied.ranges[k].role == range_role::network) {
        EXPECT_TRUE(vpc.supernet_of(applied.ranges[k].cidr));
      }
    }
  }
}

TEST(PlanOperations, ClusterNetworkInsideItsVpcIsNoConflict) {
  // said (and peered besides), or placed by containment: the VPC's space is the cluster's
  for (auto api : {"{name: api, distribution: kubeadm, network: 10.50.0.0/17, runs_in: main-vpc, pods: 10.60.0.0/16, "
                   "services: 10.61.0.0/16}\nconnections:\n  - {between: [main-vpc, api], via: peering}",
                   "{name: api, distribution: kubeadm, network: 10.50.0.0/17, pods: 10.60.0.0/16, services: 10.61.0.0/16}"}) {
    auto p = run("networks:\n  - {name: main-vpc, type: vpc, cidrs: [10.50.0.0/16]}\nclusters:\n  - " + std::string(api) + "\n");
    EXPECT_TRUE(p.result.complete()) << api;
    EXPECT_TRUE(p.result.operations.empty()) << api;
  }
}

TEST(PlanOperations, ClusterPeeredWithAVpcOfItsBlockMoves) {
  // A cluster peered with a VPC does not run in it: the overlap is an error the plan resolves.
  auto p = run(R"(
networks:
  - {name: main-vpc, type: vpc, cidrs: [10.50.0.0/16]}
clusters:
  - {name: api, distribution: kubeadm, network: 10.50.0.0/17, pods: 10.60.0.0/16, services: 10.61.0.0/16}
connections:
  - {between: [main-vpc, api], via: peering}
)");
  EXPECT_TRUE(p.result.complete());
  ASSERT_EQ(p.result.changes.size(), 1u);
  EXPECT_EQ(p.result.changes[0].from, prefix::parse("10.50.0.0/17"));
}

// Two clusters of one CNI and IPAM mode whose pod ranges a connection carries: one must move.
auto shared_pods(const std::string& distribution, const std::string& cni_and_ipam) -> planned {
  auto cluster = [&](const char* name, const char* network, const char* services) {
    return std::string("  - {name: ") + name + ", distribution: " + distribution + ", kubernetes: \"1.31\"" +
           cni_and_ipam + ", network: " + network + ", pods: 10.200.0.0/16, services: " + services + "}\n";
  };
  return run("clusters:\n" + cluster("a", "10.1.0.0/16", "10.3.0.0/16") + cluster("b", "10.11.0.0/16", "10.13.0.0/16") +
             "connections:\n  - {between: [a, b], routes: [pods]}\n");
}

// Moving --cluster-cidr moves only pods numbered from Node podCIDRs (docs/migration-facts.md
// kcm-moves-node-pods): a cluster whose pods take network or CNI-pool addresses never gets
// kcm-node-ipam, whatever the cost; the catalog's `pod_addresses` says so, not code.
TEST(PlanOperations, NodeIpamOnlyForPodsNumberedFromNodePodCidrs) {
  EXPECT_EQ(shared_pods("kubeadm", ", cni: flannel").kinds(), std::vector<std::string>{"b kcm-node-ipam"});
  EXPECT_EQ(shared_pods("kubeadm", ", cni: calico, ipam: host-local").kinds(), std::vector<std::string>{"b kcm-node-ipam"});
  EXPECT_EQ(shared_pods("kubeadm", "").kinds(), std::vector<std::string>{"b kcm-node-ipam"});  // IPAM unknown
  EXPECT_EQ(shared_pods("kubeadm", ", cni: cilium, ipam: delegated-plugin").kinds(),
            std::vector<std::string>{"b kcm-node-ipam"});  // the delegated plugin's IPAM is unknown
  // Was: Cilium's CRD-backed pools (written per node from outside, cilium-crd-external) were taken
  // for an unknown IPAM and planned kcm-node-ipam, which moves none of their pods.
  for (const char* network : {", cni: vpc-cni", ", cni: vpc-cni, ipam: prefix-delegation", ", cni: cilium, ipam: eni",
                              ", cni: cilium, ipam: azure", ", cni: cilium, ipam: crd"}) {
    auto p = shared_pods("kubeadm", network);
    ASSERT_TRUE(p.result.complete()) << network;
    EXPECT_EQ(p.kinds(), std::vector<std::string>{"b replacement-cluster"}) << network;
  }
  // Even when a cost setting makes it the cheapest, kcm-node-ipam is not offered for Calico IPAM's pools.
  plan_options cheap;
  cheap.settings.cost_overrides.push_back({cost_override::scope::any, "", "kcm-node-ipam", 0, {}});
  fleet_loader loader(builtin_catalog());
  loader.add_text("clusters:\n"
                  "  - {name: a, distribution: kubeadm, cni: calico, network: 10.1.0.0/16, pods: 10.200.0.0/16}\n"
                  "  - {name: b, distribution: kubeadm, cni: calico, network: 10.11.0.0/16, pods: 10.200.0.0/16}\n"
                  "connections:\n  - {between: [a, b], routes: [pods]}\n",
                  "t.yaml");
  auto loaded = loader.finish();
  ASSERT_TRUE(loaded.ok());
  auto result = plan(loaded.value, builtin_catalog(), cheap);
  ASSERT_EQ(result.operations.size(), 1u);
  EXPECT_EQ(result.operations[0].kind, "calico-ippool-swap");
}

// An EKS cluster that names no CNI runs the VPC CNI (catalog `cni:` of eks, fact
// dist-eks-cni): its pods move by custom networking, as a named vpc-cni cluster's do.
TEST(PlanOperations, EksWithoutACniNamedMovesPodsAsTheVpcCni) {
  EXPECT_EQ(shared_pods("eks", "").kinds(), std::vector<std::string>{"b vpc-cni-custom-networking"});
  EXPECT_EQ(shared_pods("eks", ", cni: vpc-cni").kinds(), std::vector<std::string>{"b vpc-cni-custom-networking"});
  // A cluster that replaced the VPC CNI says so, and gets its CNI's operation.
  EXPECT_EQ(shared_pods("eks", ", cni: calico").kinds(), std::vector<std::string>{"b calico-ippool-swap"});
}

TEST(PlanOperations, MorePodSpaceAddsARangeAndKeepsTheHealthyOne) {
  auto p = run(R"(
clusters:
  - {name: batch, distribution: kubeadm, kubernetes: "1.32", cni: calico, block_size: 24, nodes: 400, network: 10.70.0.0/16, pods: 10.80.0.0/16, services: 10.81.0.0/16}
)");
  ASSERT_TRUE(p.result.complete());
  EXPECT_EQ(p.kinds(), std::vector<std::string>{"batch add-pod-range"});
  ASSERT_EQ(p.result.changes.size(), 1u);
  EXPECT_FALSE(p.result.changes[0].range.has_value());
  auto applied = apply_plan(p.model, p.result);
  EXPECT_EQ(applied.ranges.size(), p.model.ranges.size() + 1);
  EXPECT_EQ(applied.ranges[1].cidr, prefix::parse("10.80.0.0/16"));  // the healthy range stays
}

TEST(PlanOperations, TwoPoolsOfOneClusterMoveInOneSwap) {
  // One IPPool swap moves both of a's pools (one roll of the nodes): cheaper than
  // b's kube-controller-manager move, which two swaps would not be.
  auto p = run(R"(
clusters:
  - {name: a, distribution: kubeadm, kubernetes: "1.31", cni: calico, network: 10.1.0.0/16, pods: [10.20.0.0/16, 10.21.0.0/16], services: 10.2.0.0/16}
  - {name: b, distribution: kubeadm, kubernetes: "1.31", network: 10.3.0.0/16, pods: [10.20.0.0/15], services: 10.4.0.0/16}
connections:
  - {between: [a, b], via: mesh, routes: [pods]}
)");
  ASSERT_TRUE(p.result.complete());
  EXPECT_EQ(p.kinds(), std::vector<std::string>{"a calico-ippool-swap"});
  EXPECT_EQ(p.result.operations[0].changes.size(), 2u);
  EXPECT_EQ(p.result.total_cost, 3);
}

TEST(PlanOperations, OnlyTheConflictingPoolOfTwoMoves) {
  auto p = run(R"(
clusters:
  - {name: a, distribution: kubeadm, kubernetes: "1.31", cni: calico, network: 10.1.0.0/16, pods: [10.20.0.0/16, 10.21.0.0/16], services: 10.2.0.0/16}
  - {name: b, distribution: kubeadm, kubernetes: "1.31", network: 10.3.0.0/16, pods: [10.20.0.0/16], services: 10.4.0.0/16}
connections:
  - {between: [a, b], via: mesh, routes: [pods]}
)");
  ASSERT_TRUE(p.result.complete());
  EXPECT_EQ(p.kinds(), std::vector<std::string>{"a calico-ippool-swap"});
  ASSERT_EQ(p.result.changes.size(), 1u);
  EXPECT_EQ(p.result.changes[0].from, prefix::parse("10.20.0.0/16"));  // the healthy 10.21.0.0/16 stays
}

TEST(PlanOperations, Kops129GetsTheAlphaServiceCidrPath) {
  auto p = run(R"(
networks:
  - {name: tailnet, type: tailscale}
clusters:
  - {name: edge, distribution: kops, kubernetes: "1.29", cni: calico}
connections:
  - {between: [edge, tailnet], via: tailscale}
)");
  ASSERT_TRUE(p.result.complete());
  auto text = p.steps_text();
  EXPECT_NE(text.find("networking.k8s.io/v1alpha1"), std::string::npos) << text;
  EXPECT_EQ(text.find("without the ServiceCIDR API"), std::string::npos) << text;
  auto kinds = p.kinds();
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "edge service-cidr-api"), kinds.end());
}

TEST(PlanOperations, ServiceCidrStagesFollowTheVersion) {
  auto steps_for = [](const std::string& version) {
    auto p = run("clusters:\n  - {name: a, distribution: kubeadm, kubernetes: \"" + version +
                 "\", network: 10.1.0.0/16, pods: 10.2.0.0/16, services: 10.0.0.0/11}\n");
    std::string out;
    for (const auto& op : p.result.operations) {
      for (const auto& s : op.steps) out += s.text + "\n";
    }
    return out;
  };
  // No ServiceCIDR kind before 1.29 (kubernetes/api v0.27, v0.28): a maintenance window.
  EXPECT_NE(steps_for("1.26").find("without the ServiceCIDR API"), std::string::npos);
  EXPECT_NE(steps_for("1.28").find("without the ServiceCIDR API"), std::string::npos);
  EXPECT_NE(steps_for("1.29").find("v1alpha1"), std::string::npos);
  EXPECT_NE(steps_for("1.30").find("v1alpha1"), std::string::npos);
  EXPECT_NE(steps_for("1.31").find("v1beta1"), std::string::npos);
  EXPECT_NE(steps_for("1.32").find("v1beta1"), std::string::npos);
  EXPECT_NE(steps_for("1.33").find("create the ServiceCIDR"), std::string::npos);
  EXPECT_EQ(steps_for("1.33").find("v1beta1"), std::string::npos);
}

TEST(PlanOperations, WindowCostsMoreThanTheApiAndReplacementMoreThanBoth) {
  const auto& c = builtin_catalog();
  owner o;
  o.type = "kubeadm";
  o.kubernetes = kube_version{1, 29};
  o.service_count = 250;
  o.load_balancer_count = 12;
  auto api = cost_of(*c.find_operation("service-cidr-api"), o).total;
  auto window = cost_of(*c.find_operation("service-window"), o).total;
  auto replacement = cost_of(*c.find_operation("replacement-cluster"), o).total;
  EXPECT_LT(api, window);
  EXPECT_LT(window, replacement);
  // And it says what it counted.
  auto counted = cost_of(*c.find_operation("service-cidr-api"), o).counted;
  EXPECT_EQ(counted, (std::vector<std::string>{"base 2", "+2 for 250 Services (1 per 100)", "+2 for 12 LoadBalancers (1 per 5)"}));
}

TEST(PlanOperations, CheapestOperationIsNotTheCheapestRange) {
  // An EKS cluster and a kubeadm 1.26 cluster share a service range; the EKS
  // cluster's network also conflicts, so it is replaced anyway and its services
  // go with it: the kubeadm cluster (whose move would need a window) stays.
  auto p = run(R"(
networks:
  - {name: office, type: office, cidrs: [10.40.0.0/16]}
clusters:
  - {name: shop, distribution: eks, kubernetes: "1.30", network: 10.40.0.0/16, services: 10.100.0.0/16}
  - {name: ops, distribution: kubeadm, kubernetes: "1.26", network: 10.30.0.0/16, pods: 10.31.0.0/16, services: 10.100.0.0/16}
connections:
  - {between: [shop, ops], via: mesh, routes: [pods, services]}
  - {between: [shop, office], via: vpn}
)");
  ASSERT_TRUE(p.result.complete());
  EXPECT_EQ(p.kinds(), std::vector<std::string>{"shop replacement-cluster"});
}

// Random fleets in a small universe, with random distributions, versions, CNIs and a shared VPC.
auto random_fleet(test::random_source& rng) -> fleet {
  fleet f;
  const char* distributions[] = {"kubeadm", "eks", "gke", "kops", ""};
  const char* cnis[] = {"", "calico", "cilium"};
  owner vpc;
  vpc.name = "vpc";
  vpc.kind = owner_kind::network;
  vpc.type = "vpc";
  vpc.movable = rng() % 2 == 0;
  f.owners.push_back(vpc);
  fleet_range vr;
  vr.cidr = prefix::parse("10.0.0.0/25");
  vr.owner = 0;
  vr.role = range_role::external;
  f.owners[0].ranges.push_back(0);
  f.ranges.push_back(vr);
  auto owners = 2 + rng() % 4;
  for (unsigned k = 1; k <= owners; ++k) {
    owner o;
    o.name = "o" + std::to_string(k);
    o.kind = rng() % 5 == 0 ? owner_kind::network : owner_kind::cluster;
    o.movable = rng() % 2 == 0;
    o.node_cidr_mask = 28;
    if (o.kind == owner_kind::cluster) {
      o.type = distributions[rng() % 5];
      o.cni = cnis[rng() % 3];
      if (rng() % 4) o.kubernetes = kube_version{1, static_cast<int>(25 + rng() % 10)};
    }
    f.owners.push_back(o);
    auto ranges = 1 + rng() % 3;
    for (unsigned j = 0; j < ranges; ++j) {
      fleet_range r;
      int length = 25 + static_cast<int>(rng() % 4);
      r.cidr = prefix::containing(address::v4(0x0a000000u + (rng() % 256)), length);
      r.owner = k;
      r.role = o.kind == owner_kind::network ? range_role::external : static_cast<range_role>(rng() % 3);
      r.where = {"f", static_cast<std::uint32_t>(f.ranges.size() + 1), 1};
      f.owners[k].ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
      f.ranges.push_back(r);
    }
  }
  for (unsigned c = 0, n = 1 + rng() % 4; c < n; ++c) {
    connection conn;
    std::set<std::uint32_t> members;
    while (members.size() < 2) members.insert(rng() % (owners + 1));
    conn.members.assign(members.begin(), members.end());
    conn.routes = role_set{static_cast<std::uint8_t>(1 + rng() % 7)};
    f.connections.push_back(conn);
  }
  return f;
}

// The VPC a cluster's network lies in, as the plan sees it: owner 0 when inside it.
auto in_vpc(const fleet& f, std::uint32_t owner) -> bool {
  for (auto k : f.owners[owner].ranges) {
    if (f.ranges[k].role == range_role::network && f.ranges[0].cidr.supernet_of(f.ranges[k].cidr)) return true;
  }
  return false;
}

// Whether a connection joins an owner and the VPC (owner 0): then it is no member.
auto connected_to_vpc(const fleet& f, std::uint32_t owner) -> bool {
  return std::any_of(f.connections.begin(), f.connections.end(), [&](const connection& c) {
    return std::count(c.members.begin(), c.members.end(), owner) + std::count(c.members.begin(), c.members.end(), 0u) == 2;
  });
}

TEST(PlanOperations, RandomFleetsKeepTheInvariants) {
  const auto& c = builtin_catalog();
  std::size_t complete = 0, replacements = 0, shared = 0;
  for (unsigned seed = 0; seed < 1500; ++seed) {
    test::random_source rng(seed);
    auto f = random_fleet(rng);
    std::vector<bool> member(f.owners.size(), false);
    for (std::uint32_t o = 1; o < f.owners.size(); ++o) {
      member[o] = f.owners[o].kind == owner_kind::cluster && in_vpc(f, o) && !connected_to_vpc(f, o);
    }
    auto p = plan(f, c);
    // Every range changes at most once; no cluster is replaced twice; the cost is the operations' sum.
    std::set<std::uint32_t> changed;
    int sum = 0;
    std::map<std::uint32_t, int> replaced;
    for (const auto& op : p.operations) {
      sum += op.cost;
      if (op.scope == operation_scope::cluster) ++replaced[op.owners.front()];
      if (op.scope == operation_scope::network && op.owners.size() > 1) ++shared;
    }
    for (const auto& [owner, times] : replaced) EXPECT_EQ(times, 1) << "seed " << seed;
    replacements += replaced.size();
    EXPECT_EQ(p.total_cost, sum) << "seed " << seed;
    for (const auto& ch : p.changes) {
      if (ch.range) {
        EXPECT_TRUE(changed.insert(*ch.range).second) << "seed " << seed;
      }
    }
    auto applied = apply_plan(f, p);
    // A shared VPC never splits: every member's network stays inside the VPC, wherever it went.
    for (std::uint32_t o = 1; o < f.owners.size(); ++o) {
      if (member[o]) {
        EXPECT_TRUE(in_vpc(applied, o)) << "seed " << seed << " owner " << f.owners[o].name;
      }
    }
    if (!p.complete()) continue;
    ++complete;
    // The applied plan checks clean, but for a cluster's network inside its own VPC.
    for (const auto& x : check(applied, c)) {
      if (x.level != severity::error) continue;
      bool shared_pair = x.ranges.size() == 2 && std::all_of(x.ranges.begin(), x.ranges.end(), [&](auto k) {
        const auto& r = applied.ranges[k];
        return r.owner == 0 || (r.role == range_role::network && member[r.owner]);
      });
      EXPECT_TRUE(shared_pair) << "seed " << seed << ": " << x.message;
    }
  }
  // The generator reaches the cases it is for.
  EXPECT_GT(complete, 500u);
  EXPECT_GT(replacements, 50u);
  EXPECT_GT(shared, 10u);
}

}  // namespace
}  // namespace cidrcheck
