// Which network each cluster runs in (lib/cidrcheck/fleet/membership.hpp), and
// what check() makes of it: a source says it (runs_in), else containment in the
// one network of a type that holds clusters, never across a connection and
// never when two hold it; every placement no source said is a note.

#include "../../lib/cidrcheck/fleet/membership.hpp"

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/iostream.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cidrcheck {
namespace {

auto load(std::string_view yaml) -> fleet_load_result {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "t.yaml");
  return loader.finish();
}

auto load_file(const std::string& name) -> fleet_load_result {
  fleet_loader loader(builtin_catalog());
  loader.add_file(std::string(CIDRCHECK_FIXTURES) + "/fleets/membership/" + name);
  return loader.finish();
}

// The overlap findings of a fleet, as "rule owner/role~owner/role".
auto overlaps(const fleet& f) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& x : check(f, builtin_catalog())) {
    if (x.id != rule::overlap && x.id != rule::latent_overlap && x.id != rule::overlap_internal) continue;
    std::string pair = std::string(info(x.id).name) + " ";
    for (std::size_t k = 0; k < x.ranges.size(); ++k) {
      const auto& r = f.ranges[x.ranges[k]];
      pair += (k ? "~" : "") + f.owners[r.owner].name + "/" + std::string(to_string(r.role));
    }
    out.push_back(pair);
  }
  return out;
}

auto overlaps(std::string_view yaml) -> std::vector<std::string> {
  auto loaded = load(yaml);
  EXPECT_TRUE(loaded.ok()) << (loaded.diagnostics.empty() ? "" : format_diagnostic(loaded.diagnostics[0]));
  return overlaps(loaded.value);
}

// The membership diagnostics of a load, as "severity: message".
auto membership_notes(const fleet_load_result& loaded) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& d : loaded.diagnostics) {
    if (d.code == diag::membership) out.push_back(std::string(to_string(d.level)) + ": " + d.message);
  }
  return out;
}

struct member_case {
  std::string_view name;
  std::string_view networks, clusters, connections;
  std::vector<std::string> want;
};

TEST(Membership, LeavesOutOnlyAClusterNetworkInTheNetworkItRunsIn) {
  const member_case cases[] = {
      // the network inside its VPC, and the VPC's own CIDR as a cluster network (kops in a shared VPC)
      {"inside", "{name: v, type: vpc, cidrs: [10.50.0.0/16]}",
       "{name: a, network: 10.50.0.0/17, pods: [], services: []}, {name: b, network: 10.50.0.0/16, pods: [], services: []}",
       "", {}},
      // every type the catalog says holds clusters
      {"vnet", "{name: v, type: vnet, cidrs: [10.50.0.0/16]}", "{name: a, network: 10.50.1.0/24, pods: [], services: []}", "", {}},
      {"gcp", "{name: v, type: gcp-network, cidrs: [10.50.0.0/16]}", "{name: a, network: 10.50.1.0/24, pods: [], services: []}", "", {}},
      {"netbox", "{name: v, type: netbox-prefix, cidrs: [10.50.0.0/16]}", "{name: a, network: 10.50.1.0/24, pods: [], services: []}", "", {}},
      // a type that holds no clusters by containment...
      {"office", "{name: v, type: office, cidrs: [10.50.0.0/16]}", "{name: a, network: 10.50.1.0/24, pods: [], services: []}", "",
       {"latent-overlap a/network~v/external"}},
      // ... holds one that says it runs there, whatever the type
      {"said", "{name: v, type: datacenter, cidrs: [10.50.0.0/16]}",
       "{name: a, network: 10.50.1.0/24, runs_in: v, pods: [], services: []}", "", {}},
      // pods are not the network: pods inside the VPC collide with its hosts
      {"pods", "{name: v, type: vpc, cidrs: [10.50.0.0/16]}", "{name: a, network: 10.60.0.0/16, pods: 10.50.0.0/20, services: []}", "",
       {"latent-overlap a/pods~v/external"}},
      // sticking out: a /15 around the /16
      {"wider", "{name: v, type: vpc, cidrs: [10.50.0.0/16]}", "{name: a, network: 10.50.0.0/15, pods: [], services: []}", "",
       {"latent-overlap a/network~v/external"}},
      // a member and a cluster whose network only overlaps the member's from outside the VPC
      {"outsider", "{name: v, type: vpc, cidrs: [10.50.0.0/16]}",
       "{name: a, network: 10.50.0.0/17, pods: [], services: []}, {name: b, network: 10.50.0.0/15, pods: [], services: []}", "",
       {"latent-overlap a/network~b/network", "latent-overlap b/network~v/external"}},
      // a connection joins separate networks: a cluster peered with a VPC never runs in it
      {"peered", "{name: v, type: vpc, cidrs: [10.50.0.0/16]}", "{name: a, network: 10.50.0.0/17, pods: [], services: []}",
       "[{between: [v, a], via: peering}]", {"overlap a/network~v/external"}},
      // ... unless it says so
      {"peered-said", "{name: v, type: vpc, cidrs: [10.50.0.0/16]}",
       "{name: a, network: 10.50.0.0/17, runs_in: v, pods: [], services: []}", "[{between: [v, a], via: peering}]", {}},
      // two networks hold it: neither is its network
      {"two", "{name: v, type: vpc, cidrs: [10.50.0.0/16]}, {name: w, type: vpc, cidrs: [10.48.0.0/14]}",
       "{name: a, network: 10.50.0.0/17, pods: [], services: []}", "",
       {"latent-overlap a/network~v/external", "latent-overlap a/network~w/external", "latent-overlap v/external~w/external"}},
      // a connection to one of two holders leaves the other as the only candidate
      {"two-one-peered", "{name: v, type: vpc, cidrs: [10.50.0.0/16]}, {name: w, type: vpc, cidrs: [10.48.0.0/14]}",
       "{name: a, network: 10.50.0.0/17, pods: [], services: []}", "[{between: [a, w], via: peering}]",
       {"latent-overlap v/external~w/external", "overlap a/network~w/external"}},
      // two clusters that run in one VPC no source describes share its space by name
      {"unnamed", "", "{name: a, network: 10.50.0.0/16, runs_in: vpc-1, pods: [], services: []}, "
                      "{name: b, network: 10.50.0.0/16, runs_in: vpc-1, pods: [], services: []}",
       "[{between: [a, b], via: mesh}]", {}},
      {"unnamed-two", "", "{name: a, network: 10.50.0.0/16, runs_in: vpc-1, pods: [], services: []}, "
                          "{name: b, network: 10.50.0.0/16, runs_in: vpc-2, pods: [], services: []}",
       "[{between: [a, b], via: mesh}]", {"overlap a/network~b/network"}},
      // a member's pods meet what its network's peering brings (routed at the member)
      {"routed-at-member", "{name: v, type: vpc, cidrs: [10.50.0.0/16]}, {name: p, type: peer, cidrs: [10.60.0.0/16]}",
       "{name: a, network: 10.50.0.0/17, pods: 10.60.0.0/20, services: []}", "[{between: [v, p], via: peering}]",
       {"overlap a/pods~p/external"}},
  };
  for (const auto& c : cases) {
    std::string yaml = "networks: [" + std::string(c.networks) + "]\nclusters: [" + std::string(c.clusters) + "]\n" +
                       (c.connections.empty() ? "" : "connections: " + std::string(c.connections) + "\n");
    auto got = overlaps(yaml);
    std::sort(got.begin(), got.end());
    auto want = c.want;
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << c.name;
  }
}

struct peered_case {
  std::string_view file;
  std::vector<std::string> want;  // sorted
  std::size_t peering_messages;   // overlap findings whose message says peering refuses overlapping blocks
};

// The peered-VPC cases of issue 25; every one but on-prem.yaml (whose
// runs_in b92d7c3 cannot read) gave other findings on b92d7c3 (the commit before
// membership was kept): 0 errors for the first two.
TEST(Membership, PeeredNetworksAreOverlapsThatSayPeeringRefusesThem) {
  const peered_case cases[] = {
      // a kops cluster and a partner VPC of its block, peered (b92d7c3: 0 errors)
      {"peered-equal.yaml", {"overlap prod/network~partner-vpc/external"}, 1},
      // a /16 inside a peered /13 (b92d7c3: 0 errors)
      {"peered-nested.yaml", {"overlap prod/network~partner-vpc/external"}, 1},
      // a member of a VPC peered with a network over its own block (b92d7c3: only a latent-overlap for prod)
      {"member-of-peered.yaml", {"overlap prod-vpc/external~partner/external", "overlap prod/network~partner/external"}, 2},
      // said to run in a VPC peered with a larger one that holds its network too
      {"said-member-of-peered.yaml",
       {"overlap prod-vpc/external~partner-vpc/external", "overlap prod/network~partner-vpc/external"}, 2},
      // two VPCs hold it: placed in neither (b92d7c3: placed in the first, its overlap with it unreported)
      {"two-holders.yaml",
       {"latent-overlap main-vpc/external~legacy-vpc/external", "latent-overlap prod/network~legacy-vpc/external",
        "latent-overlap prod/network~main-vpc/external"},
       0},
      // on-premises ranges that hold cluster nodes: no overlap (b92d7c3: runs_in unknown; a netbox-prefix held nothing)
      {"on-prem.yaml", {}, 0},
  };
  for (const auto& c : cases) {
    auto loaded = load_file(std::string(c.file));
    ASSERT_TRUE(loaded.ok()) << c.file << ": " << format_diagnostic(loaded.diagnostics.front());
    auto got = overlaps(loaded.value);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, c.want) << c.file;
    std::size_t peering = 0;
    for (const auto& x : check(loaded.value, builtin_catalog())) {
      if (x.message.find("peering refuses overlapping blocks: AWS, Google Cloud and Azure do not peer networks") !=
          std::string::npos) {
        EXPECT_EQ(x.id, rule::overlap) << c.file;
        ++peering;
      }
    }
    EXPECT_EQ(peering, c.peering_messages) << c.file;
  }
}

// Pods the network numbers (VPC CNI custom networking) are a secondary block of
// the cluster's VPC (eks-custom-pod-range), so a peering with a VPC over them is
// refused too; pods of an overlay CNI's own pool are not a block of the VPC.
TEST(Membership, APodRangeTheNetworkNumbersIsABlockPeeringRefuses) {
  auto peering_messages = [](std::string_view cni) {
    auto loaded = load("networks: [{name: partner, type: peer, cidrs: [10.64.0.0/16]}]\n"
                       "clusters: [{name: payments, distribution: eks, kubernetes: \"1.30\", cni: " +
                       std::string(cni) +
                       ", network: 10.60.0.0/16, pods: 10.64.0.0/16, services: 172.20.0.0/16}]\n"
                       "connections: [{between: [payments, partner], via: peering, routes: [network, pods]}]\n");
    EXPECT_TRUE(loaded.ok()) << cni;
    std::size_t overlaps = 0, refused = 0;
    for (const auto& x : check(loaded.value, builtin_catalog())) {
      if (x.id != rule::overlap) continue;
      ++overlaps;
      if (x.message.find("peering refuses overlapping blocks") != std::string::npos) ++refused;
    }
    return std::pair{overlaps, refused};
  };
  EXPECT_EQ(peering_messages("vpc-cni"), (std::pair<std::size_t, std::size_t>{1, 1}));
  EXPECT_EQ(peering_messages("calico"), (std::pair<std::size_t, std::size_t>{1, 0}));
}

TEST(Membership, EveryPlacementNoSourceSaidIsANote) {
  // inferred: the one VPC that holds its network
  EXPECT_EQ(membership_notes(load("networks: [{name: v, type: vpc, cidrs: [10.50.0.0/16]}]\n"
                                  "clusters: [{name: a, network: 10.50.1.0/24, pods: [], services: []}]\n")),
            std::vector<std::string>{"note: cluster a runs in network v: its network 10.50.1.0/24 lies in 10.50.0.0/16 "
                                     "(no source says where it runs; `runs_in: v` says it)"});
  // two hold it: placed in neither
  EXPECT_EQ(membership_notes(load("networks: [{name: v, type: vpc, cidrs: [10.50.0.0/16]}, "
                                  "{name: w, type: vnet, cidrs: [10.48.0.0/14]}]\n"
                                  "clusters: [{name: a, network: 10.50.1.0/24, pods: [], services: []}]\n")),
            std::vector<std::string>{"note: network 10.50.1.0/24 of cluster a lies in v and w, networks that each hold "
                                     "clusters: cidrcheck places it in none, so it overlaps them all; say which it runs "
                                     "in with `runs_in`"});
  // said: no note; said but outside the network: a warning
  EXPECT_TRUE(membership_notes(load("networks: [{name: v, type: vpc, cidrs: [10.50.0.0/16]}]\n"
                                    "clusters: [{name: a, network: 10.50.1.0/24, runs_in: v, pods: [], services: []}]\n"))
                  .empty());
  EXPECT_EQ(membership_notes(load("networks: [{name: v, type: vpc, cidrs: [10.50.0.0/16]}]\n"
                                  "clusters: [{name: a, network: 10.60.1.0/24, runs_in: v, pods: [], services: []}]\n")),
            std::vector<std::string>{"warning: network 10.60.1.0/24 of cluster a lies outside network v (10.50.0.0/16), "
                                     "which it runs in: the cluster's nodes take that network's addresses, so its "
                                     "network range should lie in it"});
  // a name no source describes: a note that suggests the closest network
  EXPECT_EQ(membership_notes(load("networks: [{name: main-vpc, type: vpc, cidrs: [10.50.0.0/16]}]\n"
                                  "clusters: [{name: a, network: 10.60.1.0/24, runs_in: main-vcp, pods: [], services: []}]\n")),
            std::vector<std::string>{"note: cluster a runs in 'main-vcp', which no source describes: its network ranges "
                                     "stand for that network's space, and nothing else is placed in it (did you mean "
                                     "'main-vpc'?)"});
  // no holder, no note
  EXPECT_TRUE(membership_notes(load("clusters: [{name: a, network: 10.50.1.0/24, pods: [], services: []}]\n")).empty());
}

TEST(Membership, RunsInMustNameANetwork) {
  auto loaded = load("clusters: [{name: a, network: 10.50.1.0/24, pods: [], services: []},"
                     " {name: b, network: 10.60.1.0/24, runs_in: a, pods: [], services: []}]\n");
  ASSERT_EQ(loaded.diagnostics.size(), 1u);
  EXPECT_EQ(format_diagnostic(loaded.diagnostics[0]),
            "t.yaml:1:112: error: cluster b runs in a, which is a cluster: `runs_in` names the network a cluster's nodes "
            "are in\n");
}

TEST(Membership, MembersAreGroupedOncePerNetwork) {
  auto loaded = load("networks: [{name: v, type: vpc, cidrs: [10.50.0.0/16]}, {name: w, type: office, cidrs: [10.70.0.0/16]}]\n"
                     "clusters: [{name: a, network: 10.50.1.0/24, pods: [], services: []},"
                     " {name: b, network: 10.80.0.0/24, runs_in: w, pods: [], services: []},"
                     " {name: c, network: 10.50.2.0/24, pods: [], services: []}]\n");
  ASSERT_TRUE(loaded.ok());
  const auto& f = loaded.value;
  detail::membership_index m(f, builtin_catalog());
  auto v = *f.find_owner("v"), w = *f.find_owner("w");
  EXPECT_EQ(std::vector<std::uint32_t>(m.members(v).begin(), m.members(v).end()),
            (std::vector<std::uint32_t>{*f.find_owner("a"), *f.find_owner("c")}));
  EXPECT_EQ(std::vector<std::uint32_t>(m.members(w).begin(), m.members(w).end()),
            (std::vector<std::uint32_t>{*f.find_owner("b")}));
  EXPECT_EQ(m.place(*f.find_owner("a")).how, detail::placement_kind::inferred);
  EXPECT_EQ(m.place(*f.find_owner("b")).how, detail::placement_kind::said);
  // b says w, but its network lies outside it: a member that is no one's space
  auto b_network = f.owners[*f.find_owner("b")].ranges.front();
  EXPECT_FALSE(m.space_of(b_network));
  EXPECT_FALSE(m.holder_of(b_network));
  auto a_network = f.owners[*f.find_owner("a")].ranges.front();
  EXPECT_EQ(m.space_of(a_network), v);
  EXPECT_EQ(m.holder_of(a_network), f.owners[v].ranges.front());
}

TEST(Membership, PlanMovesANetworkWithItsSaidMembers) {
  // dc holds k8s only because k8s says so; moving dc moves k8s's network with it.
  auto loaded = load("networks: [{name: dc, type: datacenter, movable: true, cidrs: [10.50.0.0/16]},"
                     " {name: office, type: office, cidrs: [10.50.128.0/24]}]\n"
                     "clusters: [{name: k8s, distribution: kubeadm, network: 10.50.1.0/24, runs_in: dc,"
                     " pods: 10.60.0.0/16, services: 10.61.0.0/16}]\n"
                     "connections: [{between: [dc, office], via: vpn}]\n");
  ASSERT_TRUE(loaded.ok());
  auto p = plan(loaded.value, builtin_catalog(), {});
  ASSERT_EQ(p.operations.size(), 1u);
  EXPECT_EQ(p.operations[0].kind, "new-vpc");
  std::vector<std::string> moved;
  for (const auto& change : p.changes) {
    moved.push_back(loaded.value.owners[change.owner].name + " " + change.from.to_string());
  }
  std::sort(moved.begin(), moved.end());
  EXPECT_EQ(moved, (std::vector<std::string>{"dc 10.50.0.0/16", "k8s 10.50.1.0/24"}));
}

}  // namespace
}  // namespace cidrcheck
