// Named pools with selectors (docs/planning.md "Pools by site"): which pool
// serves a new range, where in it the range goes, and what the plan says.
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/iostream.hpp>

#include "../unit/random.hpp"

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

  // The change of owner's role, or nullptr.
  auto change(std::string_view owner, range_role role) const -> const plan_change* {
    for (const auto& c : result.changes) {
      if (model.owners[c.owner].name == owner && c.role == role) return &c;
    }
    return nullptr;
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

auto P(std::string_view s) { return prefix::parse(s); }

// New clusters, one per label set, each asking for a /20 network.
constexpr std::string_view sites = R"(
clusters:
  - {name: eu-aws, distribution: kubeadm, labels: {site: eu, cloud: aws}, network: /20, pods: [], services: []}
  - {name: eu-gcp, distribution: kubeadm, labels: {site: eu, cloud: gcp}, network: /20, pods: [], services: []}
  - {name: us, distribution: kubeadm, labels: {site: us}, network: /20, pods: [], services: []}
  - {name: lab, distribution: kubeadm, network: /20, pods: [], services: []}
plan:
  pools:
    - {name: eu, cidrs: [10.112.0.0/12], for: {site: eu}}
    - {name: eu-aws, cidrs: [10.64.0.0/12], for: {site: eu, cloud: aws}}
    - {name: us, cidrs: [10.80.0.0/12], for: {site: us}}
)";

TEST(PlanPools, EachNewRangeComesFromTheMostSpecificPoolThatMatchesItsLabels) {
  auto p = run(sites);
  ASSERT_TRUE(p.result.complete());
  const auto* aws = p.change("eu-aws", range_role::network);
  const auto* gcp = p.change("eu-gcp", range_role::network);
  const auto* us = p.change("us", range_role::network);
  const auto* lab = p.change("lab", range_role::network);
  ASSERT_TRUE(aws && gcp && us && lab);
  // eu-aws matches both eu pools: the one with two keys wins, though written later.
  EXPECT_TRUE(P("10.64.0.0/12").supernet_of(aws->to)) << aws->to;
  EXPECT_EQ(aws->source, "pool eu-aws");
  EXPECT_TRUE(P("10.112.0.0/12").supernet_of(gcp->to)) << gcp->to;
  EXPECT_EQ(gcp->source, "pool eu");
  EXPECT_TRUE(P("10.80.0.0/12").supernet_of(us->to)) << us->to;
  EXPECT_EQ(us->source, "pool us");
  // No pool matches lab: the default pools serve it, outside every named pool's space.
  EXPECT_EQ(lab->source, "default pools (no named pool matches)");
  for (auto named : {"10.64.0.0/12", "10.112.0.0/12", "10.80.0.0/12"}) EXPECT_FALSE(P(named).overlaps(lab->to)) << lab->to;
}

TEST(PlanPools, EqualSpecificityGoesToTheFirstWrittenPool) {
  auto p = run(R"(
clusters:
  - {name: a, distribution: kubeadm, labels: {site: eu, cloud: aws}, network: /20, pods: [], services: []}
plan:
  pools:
    - {name: by-cloud, cidrs: [10.64.0.0/12], for: {cloud: aws}}
    - {name: by-site, cidrs: [10.80.0.0/12], for: {site: eu}}
)");
  ASSERT_TRUE(p.change("a", range_role::network));
  EXPECT_EQ(p.change("a", range_role::network)->source, "pool by-cloud");
}

TEST(PlanPools, RoleAndOwnerPatternSelectToo) {
  auto p = run(R"(
clusters:
  - {name: prod-eu, distribution: kubeadm, labels: {site: eu}, network: /20, pods: /16, services: /20}
  - {name: dev-eu, distribution: kubeadm, labels: {site: eu}, network: /20, pods: /16, services: /20}
plan:
  pools:
    - {name: eu, cidrs: [10.64.0.0/12], for: {site: eu}}
    - {name: eu-services, cidrs: [10.160.0.0/16], for: {site: eu, role: services}}
    - {name: prod-pods, cidrs: [10.128.0.0/12], for: {owner: "prod-*", role: [pods]}}
)");
  ASSERT_TRUE(p.result.complete());
  EXPECT_EQ(p.change("prod-eu", range_role::services)->source.substr(0, 16), "pool eu-services");
  EXPECT_EQ(p.change("dev-eu", range_role::services)->source.substr(0, 16), "pool eu-services");
  EXPECT_EQ(p.change("prod-eu", range_role::pods)->source.substr(0, 14), "pool prod-pods");
  EXPECT_TRUE(P("10.128.0.0/12").supernet_of(p.change("prod-eu", range_role::pods)->to));
  EXPECT_EQ(p.change("dev-eu", range_role::pods)->source.substr(0, 7), "pool eu");
  EXPECT_TRUE(P("10.64.0.0/12").supernet_of(p.change("dev-eu", range_role::pods)->to));
}

// A pods range that must move goes next to the network the cluster keeps: its
// /16 is 10.71.0.0/16, right below 10.72.0.0/20, where best fit would take
// 10.73.0.0/16 (the lowest free /16 block; 10.64.0.0/13 is larger).
constexpr std::string_view moving_pods = R"(
clusters:
  - {name: eu, distribution: kubeadm, labels: {site: eu}, network: 10.72.0.0/20, pods: 10.0.0.0/16, services: 10.96.0.0/20, nodes: 10}
  - {name: other, distribution: kubeadm, network: 192.168.0.0/24, pods: 10.0.0.0/16, services: 10.97.0.0/20, nodes: 10}
connections:
  - {between: [eu, other]}
plan:
  pin: [other]
  pools:
    - {name: eu, cidrs: [10.64.0.0/12], for: {site: eu}}
)";

TEST(PlanPools, AMovedRangeGoesNextToTheOwnersOtherRangesInThePool) {
  auto p = run(moving_pods);
  ASSERT_TRUE(p.result.complete());
  const auto* pods = p.change("eu", range_role::pods);
  ASSERT_TRUE(pods);
  EXPECT_EQ(pods->to, P("10.71.0.0/16"));
  EXPECT_TRUE(P("10.64.0.0/12").supernet_of(pods->to)) << pods->to;
  bool adjacent = pods->to.last().next() == P("10.72.0.0/20").network() || P("10.72.0.0/20").last().next() == pods->to.network();
  EXPECT_TRUE(adjacent) << pods->to;
  EXPECT_EQ(pods->source, "pool eu, adjacent to the cluster's network 10.72.0.0/20");
}

TEST(PlanPools, AFullNamedPoolIsAProblemThatNamesItNotAFallback) {
  auto p = run(R"(
clusters:
  - {name: a, distribution: kubeadm, labels: {site: eu}, network: /16, pods: [], services: []}
plan:
  pools:
    - {name: tiny, cidrs: [10.64.0.0/20], for: {site: eu}}
)");
  ASSERT_EQ(p.result.problems.size(), 1u);
  EXPECT_NE(p.result.problems[0].message.find("in pool tiny (10.64.0.0/20)"), std::string::npos)
      << p.result.problems[0].message;
}

TEST(PlanPools, APoolOfOneIpVersionServesOnlyThatVersion) {
  auto p = run(R"(
clusters:
  - {name: a, distribution: kubeadm, labels: {site: eu}, network: [/20, ipv6/64], pods: [], services: []}
plan:
  pools:
    - {name: eu, cidrs: [10.64.0.0/12], for: {site: eu}}
)");
  ASSERT_TRUE(p.result.complete());
  int v4 = 0, v6 = 0;
  for (const auto& c : p.result.changes) {
    if (c.to.version() == ip_version::v4) {
      ++v4;
      EXPECT_EQ(c.source, "pool eu");
    } else {
      ++v6;
      EXPECT_EQ(c.source, "default pools (no named pool matches)");
    }
  }
  EXPECT_EQ(v4, 1);
  EXPECT_EQ(v6, 1);
}

TEST(PlanPools, WithoutNamedPoolsNoSourceIsGiven) {
  auto p = run(R"(
clusters:
  - {name: a, distribution: kubeadm, labels: {site: eu}, network: /20, pods: [], services: []}
plan:
  pools: {network: [10.64.0.0/12]}
)");
  ASSERT_EQ(p.result.changes.size(), 1u);
  EXPECT_TRUE(P("10.64.0.0/12").supernet_of(p.result.changes[0].to));
  EXPECT_EQ(p.result.changes[0].source, "");
}

// Ranges the plan derives rather than allocates say where they came from too:
// a cluster's network keeps its place in the VPC that moves.
TEST(PlanPools, ADerivedRangeSaysWhatItFollows) {
  auto p = run(R"(
networks:
  - {name: main-vpc, type: vpc, cidrs: [10.50.0.0/16], movable: true, labels: {site: eu}}
  - {name: partner, type: peer, cidrs: [10.50.0.0/16]}
clusters:
  - {name: api, distribution: kubeadm, kubernetes: "1.33", labels: {site: eu}, runs_in: main-vpc, network: 10.50.0.0/17, pods: 10.60.0.0/16, services: 10.61.0.0/16}
connections:
  - {between: [main-vpc, partner], via: peering}
  - {between: [api, partner], via: peering, routes: [network]}
plan:
  pools:
    - {name: eu, cidrs: [10.64.0.0/12], for: {site: eu}}
)");
  ASSERT_TRUE(p.result.complete());
  const auto* vpc = p.change("main-vpc", range_role::external);
  const auto* network = p.change("api", range_role::network);
  ASSERT_TRUE(vpc && network);
  EXPECT_EQ(vpc->source, "pool eu");
  EXPECT_TRUE(vpc->to.supernet_of(network->to)) << vpc->to << " " << network->to;
  EXPECT_EQ(network->source, "the same place in its VPC main-vpc's new range " + vpc->to.to_string());
}

// Without named pools a derived range gives no source either, as an allocated one.
TEST(PlanPools, WithoutNamedPoolsADerivedRangeGivesNoSource) {
  auto p = run(R"(
networks:
  - {name: main-vpc, type: vpc, cidrs: [10.50.0.0/16], movable: true}
  - {name: partner, type: peer, cidrs: [10.50.0.0/16]}
clusters:
  - {name: api, distribution: kubeadm, kubernetes: "1.33", runs_in: main-vpc, network: 10.50.0.0/17, pods: 10.60.0.0/16, services: 10.61.0.0/16}
connections:
  - {between: [main-vpc, partner], via: peering}
  - {between: [api, partner], via: peering, routes: [network]}
)");
  ASSERT_TRUE(p.result.complete());
  const auto* network = p.change("api", range_role::network);
  ASSERT_TRUE(network);
  EXPECT_EQ(network->source, "");
}

TEST(PlanPools, ThePlanIsTheSameEveryRun) {
  auto a = run(sites), b = run(sites);
  ASSERT_EQ(a.result.changes.size(), b.result.changes.size());
  for (std::size_t k = 0; k < a.result.changes.size(); ++k) {
    EXPECT_EQ(a.result.changes[k].to, b.result.changes[k].to);
    EXPECT_EQ(a.result.changes[k].source, b.result.changes[k].source);
  }
}

// Random fleets of labelled clusters, some ranges conflicting, some requested,
// and random named pools: every allocated range comes from the pool the
// selector rules name (recomputed here from the labels, not from the planner),
// fallback ranges stay out of every named pool, new ranges are disjoint from
// each other and from every old range, and an "adjacent to" source is true.
TEST(PlanPools, RandomFleetsTakeEachRangeFromThePoolItsSelectorsName) {
  test::random_source rng(2611);
  const char* site_words[] = {"eu", "us", "ap"};
  const char* clouds[] = {"aws", "gcp"};
  const char* roles[] = {"network", "pods", "services"};
  std::size_t from_pools = 0, adjacent = 0, fallback = 0;
  for (int round = 0; round < 60; ++round) {
    std::string yaml = "clusters:\n";
    int n = 3 + static_cast<int>(rng() % 5);
    for (int k = 0; k < n; ++k) {
      yaml += "  - {name: c" + std::to_string(k) + ", distribution: kubeadm, nodes: 4";
      std::string labels;
      if (rng() % 4 != 0) labels += std::string("site: ") + site_words[rng() % 3];
      if (rng() % 2 != 0) labels += std::string(labels.empty() ? "" : ", ") + "cloud: " + clouds[rng() % 2];
      if (!labels.empty()) yaml += ", labels: {" + labels + "}";
      // Networks inside the pools' space sometimes, so that neighbours count; pods often shared (conflicts).
      yaml += rng() % 3 == 0 ? ", network: /22" : ", network: 10." + std::to_string(64 + rng() % 48) + "." +
                                                     std::to_string(4 * (rng() % 64)) + ".0/22";
      yaml += rng() % 3 == 0 ? ", pods: auto" : ", pods: 10." + std::to_string(rng() % 2) + ".0.0/16";
      yaml += rng() % 3 == 0 ? ", services: /24" : ", services: 10." + std::to_string(200 + rng() % 2) + ".0.0/20";
      yaml += "}\n";
    }
    yaml += "connections:\n  - {between: [";
    for (int k = 0; k < n; ++k) yaml += (k ? ", c" : "c") + std::to_string(k);
    yaml += "]}\nplan:\n  pools:\n";
    int pools = 1 + static_cast<int>(rng() % 4);
    for (int q = 0; q < pools; ++q) {
      yaml += "    - {name: p" + std::to_string(q) + ", cidrs: [10." + std::to_string(64 + 16 * q) + ".0.0/12], for: {";
      std::string sel;
      if (rng() % 3 != 0) sel += std::string("site: ") + site_words[rng() % 3];
      if (rng() % 3 == 0) sel += std::string(sel.empty() ? "" : ", ") + "cloud: " + clouds[rng() % 2];
      if (rng() % 3 == 0) sel += std::string(sel.empty() ? "" : ", ") + "role: " + roles[rng() % 3];
      if (rng() % 5 == 0) sel += std::string(sel.empty() ? "" : ", ") + "owner: \"c" + std::to_string(rng() % n) + "\"";
      yaml += sel + "}}\n";
    }
    SCOPED_TRACE(yaml);
    auto p = run(yaml);
    const auto& named = p.model.plan.named_pools;
    ASSERT_EQ(named.size(), static_cast<std::size_t>(pools));
    std::vector<prefix> placed;
    for (const auto& c : p.result.changes) {
      if (c.source.empty()) continue;  // derived (a default that follows the network)
      const auto& o = p.model.owners[c.owner];
      // The pool the rules name, recomputed: every label of `for` among the owner's, the role and
      // owner pattern if given; most keys wins, the first written among equals.
      std::optional<std::size_t> want;
      std::size_t best = 0;
      for (std::size_t q = 0; q < named.size(); ++q) {
        const auto& sel = named[q].selector;
        bool ok = true;
        for (const auto& l : sel.labels) ok = ok && std::find(o.labels.begin(), o.labels.end(), l) != o.labels.end();
        if (sel.roles) ok = ok && sel.roles->names(c.role);
        if (sel.owner) ok = ok && *sel.owner == o.name;
        std::size_t keys = sel.labels.size() + (sel.roles ? 1 : 0) + (sel.owner ? 1 : 0);
        if (ok && (!want || keys > best)) {
          want = q;
          best = keys;
        }
      }
      if (want) {
        ++from_pools;
        EXPECT_EQ(c.source.rfind("pool " + named[*want].name, 0), 0u) << o.name << " " << c.source;
        EXPECT_TRUE(named[*want].cidrs[0].supernet_of(c.to)) << o.name << " " << c.to;
        auto at = c.source.find(", adjacent to ");
        if (at != std::string::npos) {
          ++adjacent;
          auto neighbour = prefix::parse(c.source.substr(c.source.rfind(' ') + 1));
          EXPECT_TRUE(neighbour.last().next() == c.to.network() || c.to.last().next() == neighbour.network())
              << c.source << " " << c.to;
        }
      } else {
        ++fallback;
        EXPECT_EQ(c.source, "default pools (no named pool matches)");
        for (const auto& q : named) EXPECT_FALSE(q.cidrs[0].overlaps(c.to)) << c.to;
      }
      for (const auto& x : placed) EXPECT_FALSE(x.overlaps(c.to)) << x << " " << c.to;
      for (const auto& r : p.model.ranges) EXPECT_FALSE(r.cidr.overlaps(c.to)) << r.cidr << " " << c.to;
      placed.push_back(c.to);
    }
  }
  // The rounds reach every case.
  EXPECT_GT(from_pools, 50u);
  EXPECT_GT(adjacent, 10u);
  EXPECT_GT(fallback, 5u);
}

}  // namespace
}  // namespace cidrcheck
