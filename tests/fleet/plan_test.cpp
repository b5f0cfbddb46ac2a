#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/iostream.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {
namespace {

struct planned {
  fleet model;
  plan_result result;

  // "owner role from -> to" for every change, in the plan's order.
  auto moves() const -> std::vector<std::string> {
    std::vector<std::string> out;
    for (const auto& c : result.changes) {
      std::string role = c.range ? model.role_name(model.ranges[*c.range]) : std::string(to_string(c.role));
      out.push_back(model.owners[c.owner].name + " " + role + " " +
                    (c.from.is_valid() ? c.from.to_string() : "new") + " -> " + c.to.to_string());
    }
    return out;
  }
  auto errors_left() const -> std::size_t {
    return static_cast<std::size_t>(std::count_if(result.remaining.begin(), result.remaining.end(),
                                                  [](const finding& x) { return x.level == severity::error; }));
  }
};

auto run(std::string_view yaml, plan_options options = {}) -> planned {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "t.yaml");
  auto loaded = loader.finish();
  EXPECT_TRUE(loaded.ok()) << (loaded.diagnostics.empty() ? "" : format_diagnostic(loaded.diagnostics[0]));
  auto result = plan(loaded.value, builtin_catalog(), options);
  return {std::move(loaded.value), std::move(result)};
}

constexpr std::string_view three_meshed = R"(
clusters:
  - {name: eu, distribution: kubeadm, network: 10.10.0.0/16, pods: 10.20.0.0/16}
  - {name: us, distribution: kubeadm, network: 10.11.0.0/16, pods: 10.21.0.0/16}
  - {name: ap, distribution: kubeadm, network: 10.12.0.0/16, pods: 10.22.0.0/16}
connections:
  - {between: [eu, us, ap], routes: [pods, services]}
)";

TEST(Plan, ThreeMeshedClustersSharingServicesMoveTwoRangesNotThree) {
  auto p = run(three_meshed);
  ASSERT_TRUE(p.result.complete());
  EXPECT_EQ(p.result.changes.size(), 2u);
  // Two service moves of Kubernetes of unknown version: each needs a maintenance window.
  EXPECT_EQ(p.result.total_cost, 2 * builtin_catalog().find_operation("service-window")->cost);
  EXPECT_TRUE(p.result.optimal);
  // The earliest-declared cluster keeps its range.
  for (const auto& c : p.result.changes) EXPECT_NE(p.model.owners[c.owner].name, "eu");
  EXPECT_EQ(p.errors_left(), 0u);
  // Moved ranges keep their length, lie in the default pools and are unique.
  for (const auto& c : p.result.changes) {
    EXPECT_EQ(c.to.length(), 12);
    EXPECT_TRUE(c.to.subnet_of(prefix::parse("10.0.0.0/8")));
    EXPECT_TRUE(c.transition_safe);
  }
  EXPECT_FALSE(p.result.changes[0].to.overlaps(p.result.changes[1].to));
}

TEST(Plan, PodsMoveRatherThanTheVpcWhenAPinnedPartnerCollides) {
  auto p = run(R"(
networks:
  - {name: partner, type: peer, cidrs: 10.64.0.0/16}
clusters:
  - {name: payments, network: 10.64.0.0/16, pods: 10.65.0.0/16, services: 10.66.0.0/16}
connections:
  - {between: [payments, partner], routes: [network]}
)");
  // The cluster's network collides and must move: the partner is pinned.
  EXPECT_EQ(p.moves(), std::vector<std::string>{"payments network 10.64.0.0/16 -> " + p.result.changes[0].to.to_string()});
  EXPECT_EQ(p.result.total_cost, 10);

  auto q = run(R"(
networks:
  - {name: partner, type: peer, cidrs: 10.64.0.0/16}
clusters:
  - {name: payments, network: 10.60.0.0/16, pods: 10.64.0.0/16, services: 10.66.0.0/16}
connections:
  - {between: [payments, partner], routes: [network, pods]}
)");
  ASSERT_EQ(q.result.changes.size(), 1u);
  EXPECT_EQ(q.result.changes[0].role, range_role::pods);
  EXPECT_EQ(q.result.total_cost, builtin_catalog().find_operation("kcm-node-ipam")->cost);
}

TEST(Plan, CostsDecideWhichSideMoves) {
  // A cluster's pods against another cluster's services: services are cheaper.
  constexpr std::string_view fleet_text = R"(
clusters:
  - {name: a, network: 10.1.0.0/16, pods: 10.96.0.0/16, services: 10.2.0.0/16}
  - {name: b, network: 10.3.0.0/16, pods: 10.4.0.0/16, services: 10.96.0.0/16}
connections:
  - [a, b]
)";
  auto p = run(fleet_text);
  ASSERT_EQ(p.result.changes.size(), 1u);
  EXPECT_EQ(p.model.owners[p.result.changes[0].owner].name, "b");
  EXPECT_EQ(p.result.changes[0].role, range_role::services);
  // Make services dearer than pods (the per-role cost replaces the in-place kinds' base), and the pods move instead.
  plan_options options;
  options.settings.cost[2] = builtin_catalog().find_operation("kcm-node-ipam")->cost + 1;
  auto q = run(fleet_text, options);
  ASSERT_EQ(q.result.changes.size(), 1u);
  EXPECT_EQ(q.result.changes[0].role, range_role::pods);
  EXPECT_EQ(q.result.total_cost, builtin_catalog().find_operation("kcm-node-ipam")->cost);
}

TEST(Plan, PinnedRangesStayAndTheOthersMove) {
  plan_options options;
  options.settings.pins.push_back({"us/services", {}});
  auto p = run(three_meshed, options);
  ASSERT_TRUE(p.result.complete());
  ASSERT_EQ(p.result.changes.size(), 2u);
  for (const auto& c : p.result.changes) EXPECT_NE(p.model.owners[c.owner].name, "us");
  // A pin that matches nothing is said, not silently ignored.
  options.settings.pins.push_back({"nobody/*", {}});
  EXPECT_EQ(run(three_meshed, options).result.diagnostics.size(), 1u);
}

TEST(Plan, AConflictBetweenPinnedRangesIsReportedAndThePartialPlanKept) {
  plan_options options;
  options.settings.pins.push_back({"*/services", {}});
  auto p = run(three_meshed, options);
  EXPECT_FALSE(p.result.complete());
  EXPECT_EQ(p.result.problems.size(), 3u);
  for (const auto& problem : p.result.problems) {
    EXPECT_NE(problem.message.find("both ranges are pinned"), std::string::npos) << problem.message;
  }
}

// A cluster whose pods take network addresses (the VPC CNI on kubeadm) has no
// in-place pod operation in the catalog; with its network pinned it cannot be
// replaced either, and the plan says why instead of choosing a wrong operation.
TEST(Plan, NoOperationTheCatalogOffersIsAProblemThatSaysSo) {
  constexpr std::string_view fleet_text = R"(
networks:
  - {name: partner, type: peer, cidrs: 10.64.0.0/16}
clusters:
  - {name: payments, distribution: kubeadm, kubernetes: "1.31", cni: vpc-cni, network: 10.60.0.0/16, pods: 10.64.0.0/16, services: 10.66.0.0/16}
connections:
  - {between: [payments, partner], routes: [network, pods, services]}
)";
  auto replaced = run(fleet_text);
  ASSERT_TRUE(replaced.result.complete());
  ASSERT_EQ(replaced.result.operations.size(), 1u);
  EXPECT_EQ(replaced.result.operations[0].kind, "replacement-cluster");
  plan_options options;
  // Its network is kept by a replacement, so pinning it blocks nothing; its service
  // range, which the connection carries, is renumbered.
  options.settings.pins.push_back({"payments/network", {}});
  EXPECT_TRUE(run(fleet_text, options).result.complete());
  options.settings.pins.push_back({"payments/services", {}});
  auto p = run(fleet_text, options);
  EXPECT_FALSE(p.result.complete());
  EXPECT_TRUE(p.result.operations.empty());
  ASSERT_EQ(p.result.problems.size(), 1u);
  EXPECT_NE(p.result.problems[0].message.find("the catalog offers no operation that moves it in place"), std::string::npos)
      << p.result.problems[0].message;
}

// An EKS cluster whose only conflict is its service range is replaced in the same
// VPC and subnets: its network and its pod range (VPC CNI: addresses from the
// network) are kept, only the service range is new (replace-scoped).
TEST(Plan, AReplacementRenumbersOnlyWhatConflicts) {
  auto p = run(R"(
networks:
  - {name: office, type: office, cidrs: 10.96.0.0/16}
clusters:
  - {name: eks, distribution: eks, kubernetes: "1.30", cni: vpc-cni, network: 10.20.0.0/16, pods: 10.244.0.0/16, services: 10.96.0.0/12, nodes: 63}
connections:
  - {between: [eks, office], via: vpn}
)");
  ASSERT_TRUE(p.result.complete());
  ASSERT_EQ(p.result.operations.size(), 1u);
  EXPECT_EQ(p.result.operations[0].kind, "replacement-cluster");
  ASSERT_EQ(p.moves().size(), 1u) << ::testing::PrintToString(p.moves());
  EXPECT_EQ(p.moves()[0].rfind("eks services 10.96.0.0/12 -> ", 0), 0u) << p.moves()[0];
  EXPECT_EQ(p.errors_left(), 0u);
}

// The service range of a cluster that runs its own control plane is only a
// setting of its components, and lives only in the rules of its own nodes
// (svc-virtual): a replacement keeps it unless a connection carries it to
// another member, where old and new cluster would hold it side by side.
TEST(Plan, AReplacementKeepsAServiceRangeNoConnectionCarries) {
  constexpr std::string_view fleet_text = R"(
networks:
  - {name: office, type: office, cidrs: 10.20.0.0/16}
clusters:
  - {name: prod, distribution: kops, kubernetes: "1.30", network: 10.20.0.0/16, pods: 10.128.0.0/16, services: 10.96.0.0/16, nodes: 20}
connections:
  - {between: [prod, office], via: vpn, routes: ROUTES}
)";
  auto with_routes = [&](std::string_view routes) {
    std::string text(fleet_text);
    text.replace(text.find("ROUTES"), 6, routes);
    return run(text);
  };
  auto kept = with_routes("[network, pods]");
  ASSERT_TRUE(kept.result.complete());
  ASSERT_EQ(kept.result.operations.size(), 1u);
  EXPECT_EQ(kept.result.operations[0].kind, "replacement-cluster");
  auto moves = kept.moves();
  ASSERT_EQ(moves.size(), 2u) << ::testing::PrintToString(moves);
  EXPECT_TRUE(std::none_of(moves.begin(), moves.end(), [](const std::string& m) { return m.find("services") != std::string::npos; }))
      << ::testing::PrintToString(moves);
  const auto& steps = kept.result.operations[0].steps;
  auto at = std::find_if(steps.begin(), steps.end(),
                         [](const migration_step& s) { return s.text.starts_with("build a replacement cluster"); });
  ASSERT_NE(at, steps.end());
  EXPECT_NE(at->text.find("keeps the service range 10.96.0.0/16 too"), std::string::npos) << at->text;
  auto cites = [&](std::string_view id) {
    return std::any_of(at->facts.begin(), at->facts.end(), [&](const migration_fact& f) { return f.id == id; });
  };
  EXPECT_TRUE(cites("svc-virtual"));
  EXPECT_TRUE(cites("replace-scoped"));
  EXPECT_EQ(kept.errors_left(), 0u);

  auto carried = with_routes("[network, pods, services]");
  ASSERT_TRUE(carried.result.complete());
  EXPECT_EQ(carried.moves().size(), 3u) << ::testing::PrintToString(carried.moves());
  EXPECT_EQ(carried.errors_left(), 0u);
}

// A managed provider keeps a replacement's service range where its sources let
// two clusters hold one (EKS and AKS give many clusters the same default:
// eks-svc-shared, aks-svc-shared), and gives a new one where they do not settle
// it (GKE: gke-svc-shared). Each cluster here is replaced for its network or
// pods, not its service range.
TEST(Plan, AManagedReplacementKeepsItsServiceRangeWhereTheProviderSharesIt) {
  auto replaced = [](std::string_view cluster, std::string_view fact) {
    auto p = run(std::string(R"(
networks:
  - {name: office, type: office, cidrs: 10.20.0.0/16}
clusters:
  - )") + std::string(cluster) + R"(
connections:
  - {between: [office, c], via: vpn, routes: [network, pods]}
)");
    EXPECT_TRUE(p.result.complete()) << cluster;
    EXPECT_EQ(p.errors_left(), 0u) << cluster;
    EXPECT_TRUE(std::any_of(p.result.operations.begin(), p.result.operations.end(),
                            [](const plan_operation& op) { return op.kind == "replacement-cluster"; }))
        << cluster;
    const bool cited = std::any_of(p.result.operations.begin(), p.result.operations.end(), [&](const plan_operation& op) {
      return std::any_of(op.steps.begin(), op.steps.end(), [&](const migration_step& s) {
        return std::any_of(s.facts.begin(), s.facts.end(), [&](const migration_fact& f) { return f.id == fact; });
      });
    });
    EXPECT_EQ(cited, fact != "gke-svc-shared") << cluster;
    return p.moves();
  };
  auto services_move = [](const std::vector<std::string>& moves) {
    return std::any_of(moves.begin(), moves.end(), [](const std::string& m) { return m.find(" services ") != std::string::npos; });
  };
  auto eks = replaced("{name: c, distribution: eks, kubernetes: \"1.30\", cni: vpc-cni, network: 10.20.0.0/16, "
                      "pods: 10.20.0.0/16, services: 172.20.0.0/16, nodes: 10}",
                      "eks-svc-shared");
  EXPECT_FALSE(services_move(eks)) << ::testing::PrintToString(eks);
  auto aks = replaced("{name: c, distribution: aks, kubernetes: \"1.30\", network: 10.30.0.0/16, "
                      "pods: 10.20.0.0/16, services: 10.0.0.0/16, nodes: 10}",
                      "aks-svc-shared");
  EXPECT_FALSE(services_move(aks)) << ::testing::PrintToString(aks);
  auto gke = replaced("{name: c, distribution: gke, kubernetes: \"1.30\", network: 10.20.0.0/16, "
                      "pods: 10.40.0.0/14, services: 10.44.0.0/20, nodes: 10}",
                      "gke-svc-shared");
  EXPECT_TRUE(services_move(gke)) << ::testing::PrintToString(gke);
}

// A pod range of the cluster's own (AKS kubenet) would be held by old and new
// cluster at once: it is new, and sized for the nodes, not copied (63 nodes x 1.25
// = 79 node blocks of /24: a /17, not the old /11).
TEST(Plan, AReplacementSizesItsNewPodRangeFromItsNodes) {
  auto p = run(R"(
networks:
  - {name: office, type: office, cidrs: 10.96.0.0/16}
clusters:
  - {name: aks, distribution: aks, kubernetes: "1.30", network: 10.20.0.0/16, pods: 10.128.0.0/11, services: 10.96.0.0/12, nodes: 63}
connections:
  - {between: [aks, office], via: vpn}
)");
  ASSERT_TRUE(p.result.complete());
  ASSERT_EQ(p.result.operations.size(), 1u);
  EXPECT_EQ(p.result.operations[0].kind, "replacement-cluster");
  auto moves = p.moves();
  ASSERT_EQ(moves.size(), 2u) << ::testing::PrintToString(moves);  // the network is kept
  auto pods = std::find_if(p.result.changes.begin(), p.result.changes.end(),
                           [](const plan_change& c) { return c.role == range_role::pods; });
  ASSERT_NE(pods, p.result.changes.end());
  EXPECT_EQ(pods->to.length(), 17);
  EXPECT_EQ(p.errors_left(), 0u);
}

TEST(Plan, NetworksArePinnedUnlessMovable) {
  constexpr std::string_view clash = R"(
networks:
  - {name: office, type: office, cidrs: 10.1.0.0/16}
  - {name: lab, type: lab, cidrs: 10.1.0.0/16}
connections:
  - [office, lab]
)";
  auto p = run(clash);
  EXPECT_FALSE(p.result.complete());
  std::string movable(clash);
  movable.replace(movable.find("type: lab,"), 10, "type: lab, movable: true,");
  auto q = run(movable);
  ASSERT_TRUE(q.result.complete());
  EXPECT_EQ(q.moves().size(), 1u);
  EXPECT_EQ(q.model.owners[q.result.changes[0].owner].name, "lab");
}

TEST(Plan, ServiceRangesThatAreTooLargeShrinkToTheLargestAllowed) {
  auto p = run("clusters:\n  - {name: a, network: 10.200.0.0/16, pods: 10.201.0.0/16, services: 10.32.0.0/11}\n");
  ASSERT_EQ(p.result.changes.size(), 1u);
  EXPECT_EQ(p.result.changes[0].to.length(), 12);
  EXPECT_EQ(p.errors_left(), 0u);
}

TEST(Plan, PodRangesGrowToFitNodesWithHeadroom) {
  // 100 nodes x 1.25 = 125 node blocks of /24: a /17 (128 blocks).
  auto p = run("clusters:\n  - {name: a, network: 10.200.0.0/16, pods: 10.1.0.0/20, services: 10.2.0.0/16, nodes: 100}\n");
  ASSERT_EQ(p.result.changes.size(), 1u);
  EXPECT_EQ(p.result.changes[0].to.length(), 17);
  plan_options options;
  options.settings.headroom = 2.0;  // 200 blocks: a /16
  auto q = run("clusters:\n  - {name: a, network: 10.200.0.0/16, pods: 10.1.0.0/20, services: 10.2.0.0/16, nodes: 100}\n",
               options);
  EXPECT_EQ(q.result.changes[0].to.length(), 16);
}

TEST(Plan, PoolsAndAvoidedSpaceAreRespected) {
  plan_options options;
  options.settings.pools[2] = {prefix::parse("172.16.0.0/12")};
  options.settings.avoid = {prefix::parse("172.16.0.0/13")};
  auto p = run(R"(
clusters:
  - {name: eu, network: 10.10.0.0/16, pods: 10.20.0.0/16, services: 10.96.0.0/16}
  - {name: us, network: 10.11.0.0/16, pods: 10.21.0.0/16, services: 10.96.0.0/16}
  - {name: ap, network: 10.12.0.0/16, pods: 10.22.0.0/16, services: 10.96.0.0/16}
connections:
  - [eu, us, ap]
)", options);
  ASSERT_TRUE(p.result.complete());
  for (const auto& c : p.result.changes) {
    EXPECT_TRUE(c.to.subnet_of(prefix::parse("172.16.0.0/12"))) << c.to;
    EXPECT_FALSE(c.to.overlaps(prefix::parse("172.16.0.0/13"))) << c.to;
  }
}

TEST(Plan, RunningOutOfPoolSpaceIsAProblemNotACrash) {
  plan_options options;
  options.settings.pools[2] = {prefix::parse("10.248.0.0/14")};  // room for no /12
  auto p = run(three_meshed, options);
  EXPECT_FALSE(p.result.complete());
  bool said = std::any_of(p.result.problems.begin(), p.result.problems.end(), [](const plan_problem& x) {
    return x.message.find("no free /12") != std::string::npos;
  });
  EXPECT_TRUE(said);
}

TEST(Plan, RequestedRangesAreAllocated) {
  auto p = run(R"(
clusters:
  - {name: new-a, network: /20, pods: auto, services: /16, nodes: 50, node_cidr_mask: 24}
  - {name: new-b, network: auto, pods: /14, services: "ipv6/112"}
)");
  ASSERT_TRUE(p.result.complete());
  EXPECT_EQ(p.result.changes.size(), 6u);
  std::vector<int> lengths;
  for (const auto& c : p.result.changes) lengths.push_back(c.to.length());
  // new-a: network /20, pods sized for 63 nodes of /24 (a /18), services /16; new-b: /16, /14, ipv6 /112.
  EXPECT_EQ(lengths, (std::vector<int>{20, 18, 16, 16, 14, 112}));
  EXPECT_EQ(p.result.changes.back().to.version(), ip_version::v6);
  auto applied = apply_plan(p.model, p.result);
  EXPECT_TRUE(applied.requests.empty());
  EXPECT_EQ(applied.ranges.size(), 6u);
}

TEST(Plan, WhatIfConnectionsAndLatentOverlaps) {
  constexpr std::string_view apart = R"(
clusters:
  - {name: a, network: 10.1.0.0/16, pods: 10.2.0.0/16, services: 10.96.0.0/16}
  - {name: b, network: 10.3.0.0/16, pods: 10.4.0.0/16, services: 10.96.0.0/16}
)";
  EXPECT_TRUE(run(apart).result.changes.empty());  // latent only: nothing to do
  plan_options fix;
  fix.fix_latent = true;
  EXPECT_EQ(run(apart, fix).result.changes.size(), 1u);
  plan_options connect;
  connection mesh;
  mesh.members = {0, 1};
  connect.connect.push_back(mesh);
  auto p = run(apart, connect);
  EXPECT_EQ(p.result.changes.size(), 1u);
  EXPECT_EQ(p.errors_left(), 0u);
}

TEST(Plan, TheDnsAddressMovesWithItsServiceRange) {
  auto p = run(R"(
clusters:
  - {name: a, network: 10.1.0.0/16, pods: 10.2.0.0/16, services: 192.168.0.0/16, dns: 192.168.0.10}
networks:
  - {name: home, type: home, cidrs: 192.168.1.0/24}
connections:
  - [a, home]
)");
  ASSERT_EQ(p.result.changes.size(), 1u);
  const auto& c = p.result.changes[0];
  ASSERT_TRUE(c.dns_to.has_value());
  EXPECT_EQ(*c.dns_to, address::from_bits(ip_version::v4, c.to.network().bits() + 10));
  EXPECT_FALSE(c.steps.empty());
}

TEST(Plan, RoutesMoveWithTheirDestinationInTheSameOperation) {
  // issue 15: a route is moved with its destination, never instead of it.
  auto p = run(R"(
networks:
  - name: vpn
    type: vpn
    cidrs: [10.8.0.0/24]
    routes:
      - {cidr: 10.40.0.0/16, to: staging, advertised_by: gw-1}
      - {cidr: 10.40.128.0/24, to: staging, advertised_by: gw-2}
      - {cidr: 10.40.0.0/15, to: staging, advertised_by: gw-3}
  - {name: office, cidrs: [10.40.0.0/20]}
clusters:
  - {name: staging, distribution: kubeadm, kubernetes: "1.30", network: 10.40.0.0/16, pods: 10.244.0.0/16}
connections:
  - [vpn, staging]
  - [staging, office]
)");
  ASSERT_TRUE(p.result.complete());
  EXPECT_EQ(p.errors_left(), 0u);
  const plan_change* network = nullptr;
  std::vector<const plan_change*> routes;
  for (const auto& c : p.result.changes) {
    if (p.model.owners[c.owner].name == "staging") network = &c;
    if (p.model.owners[c.owner].name == "vpn") routes.push_back(&c);
  }
  ASSERT_NE(network, nullptr);
  // The /15 also covers space that is not staging's: it stays.
  ASSERT_EQ(routes.size(), 2u);
  EXPECT_EQ(routes[0]->from, prefix::parse("10.40.0.0/16"));
  EXPECT_EQ(routes[0]->to, network->to);
  EXPECT_EQ(routes[1]->from, prefix::parse("10.40.128.0/24"));
  EXPECT_EQ(routes[1]->to, prefix::containing(address::from_bits(ip_version::v4, network->to.network().bits() + 128 * 256), 24));
  for (const auto* r : routes) EXPECT_EQ(r->operation, network->operation);
  // One operation; the new routes come first, the old ones are withdrawn last.
  ASSERT_EQ(p.result.operations.size(), 1u);
  const auto& steps = p.result.operations[0].steps;
  ASSERT_GE(steps.size(), 4u);
  EXPECT_NE(steps.front().text.find("add the route"), std::string::npos);
  EXPECT_NE(steps.back().text.find("withdraw the route"), std::string::npos);
  EXPECT_EQ(p.result.total_cost, builtin_catalog().find_operation("new-vpc")->cost);
}

TEST(Plan, MigrationStepsFollowTheKubernetesVersion) {
  auto steps_of = [](const char* version) {
    auto p = run(std::string("clusters:\n  - {name: a, distribution: kubeadm, kubernetes: \"") + version +
                 "\", network: 10.1.0.0/16, pods: 10.2.0.0/16, services: 10.0.0.0/11}\n");
    EXPECT_EQ(p.result.changes.size(), 1u);
    std::string out;
    if (!p.result.changes.empty()) {
      for (const auto& s : p.result.changes[0].steps) out += s.text + "\n";
    }
    return out;
  };
  // 1.33 serves the GA API without --runtime-config; 1.31 needs the gate; 1.29-1.30
  // serve the alpha API (the kops story did it on 1.29); before 1.29 there is no
  // ServiceCIDR kind (kubernetes/api v0.27, v0.28), so a maintenance window.
  EXPECT_NE(steps_of("1.33").find("create the ServiceCIDR"), std::string::npos);
  EXPECT_EQ(steps_of("1.33").find("--runtime-config"), std::string::npos);
  EXPECT_NE(steps_of("1.31").find("--feature-gates=MultiCIDRServiceAllocator=true"), std::string::npos);
  EXPECT_NE(steps_of("1.29").find("networking.k8s.io/v1alpha1"), std::string::npos);
  EXPECT_NE(steps_of("1.28").find("without the ServiceCIDR API"), std::string::npos);
  EXPECT_NE(steps_of("1.26").find("without the ServiceCIDR API"), std::string::npos);
}

// Issue 25, item 4: a dual-stack cluster short of IPv4 pod space had its IPv6
// pod range moved (it was listed first), and the plan said it "found no free space".
TEST(Plan, ADualStackClusterShortOfIpv4PodSpaceGrowsItsIpv4Space) {
  for (const char* pods : {"[10.80.0.0/20, fd00:10:244::/56]", "[fd00:10:244::/56, 10.80.0.0/20]"}) {
    auto p = run(std::string(R"(
clusters:
  - name: d
    distribution: kubeadm
    kubernetes: "1.30"
    ip_family: dual
    nodes: 400
    network: 10.70.0.0/16
    pods: )") + pods + R"(
    services: [10.81.0.0/16, fd00:10:96::/112]
)");
    ASSERT_TRUE(p.result.complete()) << pods << ": " << p.result.problems.front().message;
    EXPECT_EQ(p.errors_left(), 0u) << pods;
    for (const auto& c : p.result.changes) EXPECT_EQ(c.to.version(), ip_version::v4) << pods << ": " << p.moves()[0];
  }
}

// Issue 28, item 9: EKS picks 172.20.0.0/16 for services when its VPC lies in
// 10.0.0.0/8 (the catalog's services_if_network_in). A network the plan puts
// there takes the service default with it, and the plan is checked with it.
TEST(Plan, AServiceDefaultThatDependsOnTheNetworkFollowsThePlannedNetwork) {
  auto p = run(R"(
clusters:
  - {name: e, distribution: eks, network: auto}
)");
  ASSERT_TRUE(p.result.complete());
  EXPECT_EQ(p.moves(), (std::vector<std::string>{"e network new -> 10.153.0.0/16", "e services 10.100.0.0/16 -> 172.20.0.0/16"}));
  // The cluster is yet to be created: it is created with that range.
  ASSERT_FALSE(p.result.changes[1].steps.empty());
  const auto& created = p.result.changes[1].steps[0].text;
  EXPECT_NE(created.find("create e with its service range 172.20.0.0/16"), std::string::npos) << created;
  EXPECT_NE(created.find("kubernetesNetworkConfig.serviceIpv4Cidr"), std::string::npos) << created;

  // Where that default collides with a connected range, the plan does not claim it is complete.
  auto collides = run(R"(
clusters:
  - {name: e, distribution: eks, network: auto}
  - {name: k, distribution: kops, network: 172.20.0.0/16, pods: 100.96.0.0/11, services: 100.64.0.0/13}
connections:
  - [e, k]
)");
  ASSERT_FALSE(collides.result.complete());
  EXPECT_NE(collides.result.problems.front().message.find("the distribution's default for the network the plan gives"),
            std::string::npos) << collides.result.problems.front().message;
}

// Issue 26: a GKE cluster's default pod range holds a branch office that the
// on-premises router advertises over Cloud VPN.
auto gke_branch_fleet(bool reaches_branch) -> std::string {
  std::string yaml = R"(
networks:
  - {name: gcp-vpc, type: gcp-vpc, cidrs: 10.10.0.0/20}
  - name: onprem
    cidrs: 192.168.0.0/16
    routes:
      - {cidr: 10.4.0.0/16, to: branch, advertised_by: onprem-router}
  - {name: branch, type: office, cidrs: 10.4.0.0/16}
clusters:
  - {name: analytics, distribution: gke, runs_in: gcp-vpc, nodes: 60, network: 10.10.0.0/20, pods: 10.4.0.0/14, services: 34.118.224.0/20}
connections:
  - {name: cloud-vpn, between: [analytics, onprem], via: vpn, routes: [network, pods, services]}
)";
  if (reaches_branch) yaml += "  - {between: [analytics, branch], via: vpn, routes: [pods]}\n";
  return yaml;
}

TEST(Plan, ARangeBehindARouterIsWithdrawnNotReplaced) {
  auto p = run(gke_branch_fleet(false));
  ASSERT_TRUE(p.result.complete()) << (p.result.problems.empty() ? "" : p.result.problems[0].message);
  ASSERT_EQ(p.result.operations.size(), 1u);
  const auto& op = p.result.operations[0];
  EXPECT_EQ(op.kind, "gke-pod-range-withdraw");
  EXPECT_EQ(op.scope, operation_scope::pod_withdraw);
  // The new range holds 60 nodes x 1.25 of /24 node blocks (a /17, beside the network); the old one stays, withdrawn.
  EXPECT_EQ(p.moves(), (std::vector<std::string>{"analytics pods 10.4.0.0/14 -> 10.10.128.0/17"}));
  ASSERT_EQ(op.withdrawals.size(), 1u);
  EXPECT_EQ(p.model.connections[op.withdrawals[0].connection].name, "cloud-vpn");
  EXPECT_EQ(op.withdrawals[0].cidr.to_string(), "10.4.0.0/14");
  auto applied = apply_plan(p.model, p.result);
  const auto& analytics = applied.owners[*applied.find_owner("analytics")];
  std::vector<std::string> pods;
  for (auto k : analytics.ranges) {
    if (applied.ranges[k].role == range_role::pods) pods.push_back(applied.ranges[k].cidr.to_string());
  }
  EXPECT_EQ(pods, (std::vector<std::string>{"10.4.0.0/14", "10.10.128.0/17"}));
  EXPECT_EQ(applied.connections[0].withdrawn, std::vector<prefix>{prefix::parse("10.4.0.0/14")});
  EXPECT_LT(op.cost, builtin_catalog().find_operation("replacement-cluster")->cost);
}

TEST(Plan, ARangeTheClusterReachesDirectlyStillMovesByReplacement) {
  auto p = run(gke_branch_fleet(true));
  ASSERT_TRUE(p.result.complete());
  ASSERT_EQ(p.result.operations.size(), 1u);
  EXPECT_EQ(p.result.operations[0].kind, "replacement-cluster");
  EXPECT_TRUE(p.result.operations[0].withdrawals.empty());
}

TEST(Plan, ARouteConflictIsFixedByMovingTheRangeTheRouteMeets) {
  // kubeadm can move its pods in place: the conflict with the route is an ordinary pod move.
  auto p = run(R"(
networks:
  - name: vpn
    cidrs: [10.8.0.0/24]
    routes:
      - {cidr: 10.48.0.0/13, to: prod}
clusters:
  - {name: prod, distribution: kubeadm, network: 10.50.0.0/16, pods: 10.51.0.0/16, services: 172.20.0.0/16}
  - {name: batch, distribution: kubeadm, network: 10.60.0.0/16, pods: 10.52.0.0/16, services: 172.21.0.0/16}
connections:
  - {between: [vpn, prod, batch], via: vpn}
)");
  ASSERT_TRUE(p.result.complete()) << (p.result.problems.empty() ? "" : p.result.problems[0].message);
  ASSERT_EQ(p.result.operations.size(), 1u);
  EXPECT_EQ(p.result.operations[0].scope, operation_scope::pods);
  ASSERT_EQ(p.moves().size(), 1u);
  EXPECT_EQ(p.moves()[0].rfind("batch pods 10.52.0.0/16 -> ", 0), 0u) << p.moves()[0];
}

TEST(Plan, IsDeterministic) {
  auto a = run(three_meshed);
  auto b = run(three_meshed);
  EXPECT_EQ(a.moves(), b.moves());
}

}  // namespace
}  // namespace cidrcheck
