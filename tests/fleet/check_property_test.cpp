// On random fleets, the overlap findings of check() equal a brute-force
// implementation of the semantics that compares every pair of ranges at every
// owner (docs/rules.md, "overlap", "overlap-internal", "latent-overlap"); with
// routes, the route rules equal a brute force of docs/rules/route-conflict.md,
// duplicate-route.md and route-in-overlay.md, and routes take no part in the
// overlap rules; with translated connections (`via: nat`), global-range-overlap
// equals a brute force of docs/rules/global-range-overlap.md, and members of one
// translated connection report no latent overlap with each other; with
// withdrawn prefixes on connections, all of these still equal their brute
// force, in which a connection does not carry a range inside one.

#include "../unit/random.hpp"

#include <cidrcheck/fleet/check.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

namespace cidrcheck {
namespace {

// What a random fleet may hold beyond owners, ranges and connections.
struct fleet_shape {
  bool routes = false;     // routes on networks
  bool nat = false;        // translated connections with global ranges
  bool withdrawn = false;  // withdrawn prefixes on connections that do not translate
};

auto random_fleet(test::random_source& rng, fleet_shape shape = {}) -> fleet {
  fleet f;
  auto owners = 2 + rng() % 9;
  for (unsigned k = 0; k < owners; ++k) {
    owner o;
    o.name = "o" + std::to_string(k);
    o.kind = rng() % 3 == 0 ? owner_kind::network : owner_kind::cluster;
    f.owners.push_back(o);
    auto ranges = rng() % 4;
    for (unsigned j = 0; j < ranges; ++j) {
      fleet_range r;
      // A small universe so that overlaps are common: 10.0.0.0/24, lengths /24../28.
      int length = 24 + static_cast<int>(rng() % 5);
      r.cidr = prefix::containing(address::v4(0x0a000000u + (rng() % 256)), length);
      r.owner = k;
      r.role = o.kind == owner_kind::network ? range_role::external : static_cast<range_role>(rng() % 3);
      r.where = {"f", static_cast<std::uint32_t>(f.ranges.size() + 1), 1};
      f.owners[k].ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
      f.ranges.push_back(r);
    }
  }
  auto connections = rng() % 6;
  for (unsigned c = 0; c < connections; ++c) {
    connection conn;
    std::set<std::uint32_t> members;
    auto size = 2 + rng() % 3;
    while (members.size() < std::min<std::size_t>(size, owners)) members.insert(rng() % owners);
    conn.members.assign(members.begin(), members.end());
    std::shuffle(conn.members.begin(), conn.members.end(), std::mt19937(rng()));
    conn.routes = role_set{static_cast<std::uint8_t>(rng() % 8)};
    conn.where = {"f", static_cast<std::uint32_t>(1000 + c), 1};
    if (shape.nat && rng() % 2 == 0) {
      conn.via = "nat";
      // Each member gets zero to two global ranges from the same universe.
      for (auto m : conn.members) {
        auto globals = rng() % 3;
        for (unsigned j = 0; j < globals; ++j) {
          fleet_range r;
          r.cidr = prefix::containing(address::v4(0x0a000000u + (rng() % 256)), 24 + static_cast<int>(rng() % 5));
          r.owner = m;
          r.role = range_role::external;
          r.where = {"f", static_cast<std::uint32_t>(2000 + f.ranges.size()), 1};
          r.translation = c;
          f.owners[m].ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
          f.ranges.push_back(r);
        }
      }
    }
    if (shape.withdrawn && !conn.translates()) {
      auto withdrawn = rng() % 3;
      for (unsigned j = 0; j < withdrawn; ++j) {
        conn.withdrawn.push_back(prefix::containing(address::v4(0x0a000000u + (rng() % 512)), 23 + static_cast<int>(rng() % 6)));
      }
    }
    f.connections.push_back(conn);
  }
  if (!shape.routes) return f;
  // Routes on networks: a random prefix of the same universe, a destination or
  // none, and an advertiser among "", "a" and "b".
  for (std::uint32_t k = 0; k < owners; ++k) {
    if (f.owners[k].kind != owner_kind::network) continue;
    auto routes = rng() % 4;
    for (unsigned j = 0; j < routes; ++j) {
      fleet_range r;
      int length = 23 + static_cast<int>(rng() % 6);
      r.cidr = prefix::containing(address::v4(0x0a000000u + (rng() % 512)), length);
      r.owner = k;
      r.role = range_role::external;
      r.where = {"f", static_cast<std::uint32_t>(f.ranges.size() + 1), 1};
      r.route = static_cast<std::uint32_t>(f.routes.size());
      fleet_route x;
      x.range = static_cast<std::uint32_t>(f.ranges.size());
      if (rng() % 2 == 0) {
        auto to = static_cast<std::uint32_t>(rng() % owners);
        if (to != k) x.to_owner = to;
      }
      static const char* const names[] = {"", "a", "b"};
      x.advertiser = names[rng() % 3];
      f.owners[k].ranges.push_back(x.range);
      f.ranges.push_back(r);
      f.routes.push_back(x);
    }
  }
  return f;
}

// The semantics, word for word: a range of owner A is routed at V when V is A,
// or when some connection that does not translate lists both A and V, carries
// the range's role if A is a cluster, and withdraws no prefix that holds the range.
auto routed_at(const fleet& f, std::uint32_t range, std::uint32_t v) -> bool {
  const auto& r = f.ranges[range];
  if (r.owner == v) return true;
  for (const auto& c : f.connections) {
    if (c.translates()) continue;
    bool has_a = std::find(c.members.begin(), c.members.end(), r.owner) != c.members.end();
    bool has_v = std::find(c.members.begin(), c.members.end(), v) != c.members.end();
    bool carried = f.owners[r.owner].kind == owner_kind::network || c.routes.has(r.role);
    bool withdrawn = std::any_of(c.withdrawn.begin(), c.withdrawn.end(), [&](const prefix& w) { return r.cidr.subnet_of(w); });
    if (has_a && has_v && carried && !withdrawn) return true;
  }
  return false;
}

auto member(const connection& c, std::uint32_t o) -> bool {
  return std::find(c.members.begin(), c.members.end(), o) != c.members.end();
}

auto share_translation(const fleet& f, std::uint32_t a, std::uint32_t b) -> bool {
  return std::any_of(f.connections.begin(), f.connections.end(),
                     [&](const connection& c) { return c.translates() && member(c, a) && member(c, b); });
}

using key = std::tuple<rule, std::uint32_t, std::uint32_t>;

// A global range clashes with another member's global range on its connection,
// or with any other range routed at some member of its connection.
auto brute_force_globals(const fleet& f) -> std::set<key> {
  std::set<key> out;
  for (std::uint32_t i = 0; i < f.ranges.size(); ++i) {
    const auto& g = f.ranges[i];
    if (!g.is_translated()) continue;
    const auto& c = f.connections[g.translation];
    for (std::uint32_t j = 0; j < f.ranges.size(); ++j) {
      const auto& r = f.ranges[j];
      if (i == j || !g.cidr.overlaps(r.cidr)) continue;
      bool clash = false;
      if (r.is_translated()) {
        clash = r.translation == g.translation && r.owner != g.owner;
      } else {
        for (auto m : c.members) clash = clash || routed_at(f, j, m);
      }
      if (clash) out.emplace(rule::global_range_overlap, std::min(i, j), std::max(i, j));
    }
  }
  return out;
}

auto brute_force(const fleet& f) -> std::set<key> {
  std::set<key> out;
  for (std::uint32_t i = 0; i < f.ranges.size(); ++i) {
    for (std::uint32_t j = i + 1; j < f.ranges.size(); ++j) {
      if (!f.ranges[i].cidr.overlaps(f.ranges[j].cidr)) continue;
      if (!f.ranges[i].is_plain() || !f.ranges[j].is_plain()) continue;  // routes and global ranges are not ranges
      if (f.ranges[i].owner == f.ranges[j].owner) {
        out.emplace(rule::overlap_internal, i, j);
        continue;
      }
      bool both = false;
      for (std::uint32_t v = 0; v < f.owners.size() && !both; ++v) both = routed_at(f, i, v) && routed_at(f, j, v);
      if (!both && share_translation(f, f.ranges[i].owner, f.ranges[j].owner)) continue;  // the NAT hides it
      out.emplace(both ? rule::overlap : rule::latent_overlap, i, j);
    }
  }
  return out;
}

TEST(CheckProperty, OverlapFindingsEqualTheBruteForceSemantics) {
  test::random_source rng(11);
  catalog empty;  // no catalog rules: only the overlap rules and cluster rules apply
  for (int round = 0; round < 3000; ++round) {
    auto f = random_fleet(rng);
    auto findings = check(f, empty);
    std::set<key> got;
    for (const auto& x : findings) {
      if (x.id != rule::overlap && x.id != rule::overlap_internal && x.id != rule::latent_overlap) continue;
      ASSERT_EQ(x.ranges.size(), 2u);
      auto i = std::min(x.ranges[0], x.ranges[1]), j = std::max(x.ranges[0], x.ranges[1]);
      ASSERT_TRUE(got.emplace(x.id, i, j).second) << "reported twice: " << x.message;
      // The witness must be right: the owner routes both, through the named connections.
      if (x.id == rule::overlap) {
        ASSERT_TRUE(x.routed_at.has_value());
        ASSERT_TRUE(routed_at(f, i, *x.routed_at)) << x.message;
        ASSERT_TRUE(routed_at(f, j, *x.routed_at)) << x.message;
        ASSERT_FALSE(x.via.empty());
        for (auto c : x.via) {
          const auto& m = f.connections[c].members;
          ASSERT_NE(std::find(m.begin(), m.end(), *x.routed_at), m.end()) << x.message;
        }
      }
      // The exact shared addresses are the smaller block.
      ASSERT_TRUE(x.overlap.has_value());
      auto smaller = f.ranges[i].cidr.length() >= f.ranges[j].cidr.length() ? f.ranges[i].cidr : f.ranges[j].cidr;
      ASSERT_EQ(*x.overlap, address_range(smaller));
    }
    ASSERT_EQ(got, brute_force(f)) << "round " << round;
  }
}

// Where a route leads: its `to`, else the one owner (not the network) whose
// smallest range holds it, when exactly one owner has a range of that size.
auto destination(const fleet& f, const fleet_route& x) -> std::optional<std::uint32_t> {
  if (x.to_owner) return x.to_owner;
  const auto& route = f.ranges[x.range];
  int best = -1;
  std::set<std::uint32_t> owners;
  for (const auto& r : f.ranges) {
    if (!r.is_plain() || r.owner == route.owner || !route.cidr.subnet_of(r.cidr)) continue;
    if (r.cidr.length() > best) {
      best = r.cidr.length();
      owners.clear();
    }
    if (r.cidr.length() == best) owners.insert(r.owner);
  }
  if (owners.size() != 1) return std::nullopt;
  return *owners.begin();
}

auto lead_apart(const fleet_route& a, const fleet_route& b) -> bool {
  if (a.to_owner && b.to_owner) return *a.to_owner != *b.to_owner;
  return !a.advertiser.empty() && !b.advertiser.empty() && a.advertiser != b.advertiser;
}

auto brute_force_routes(const fleet& f) -> std::set<key> {
  std::set<key> out;
  for (std::uint32_t i = 0; i < f.ranges.size(); ++i) {
    for (std::uint32_t j = 0; j < f.ranges.size(); ++j) {
      const auto& a = f.ranges[i];
      const auto& b = f.ranges[j];
      if (i == j || !a.is_route() || b.is_translated() || !a.cidr.overlaps(b.cidr)) continue;
      auto lo = std::min(i, j), hi = std::max(i, j);
      if (b.is_route()) {
        if (i > j || a.owner != b.owner) continue;  // each pair of routes once; one network's routes only
        const auto& x = f.routes[a.route];
        const auto& y = f.routes[b.route];
        if (!lead_apart(x, y)) continue;
        out.emplace(a.cidr == b.cidr ? rule::duplicate_route : rule::route_conflict, lo, hi);
        continue;
      }
      if (b.owner == a.owner) {
        if (a.cidr.subnet_of(b.cidr)) out.emplace(rule::route_in_overlay, lo, hi);
        continue;
      }
      auto d = destination(f, f.routes[a.route]);
      if (d && *d != b.owner && routed_at(f, j, a.owner)) out.emplace(rule::route_conflict, lo, hi);
    }
  }
  return out;
}

TEST(CheckProperty, RouteFindingsEqualTheBruteForceSemantics) {
  test::random_source rng(13);
  catalog empty;
  std::size_t seen[3] = {0, 0, 0};  // route-conflict, duplicate-route, route-in-overlay: the test must see each
  for (int round = 0; round < 3000; ++round) {
    auto f = random_fleet(rng, {.routes = true});
    auto findings = check(f, empty);
    std::set<key> overlaps, routes;
    for (const auto& x : findings) {
      bool route_rule = x.id == rule::route_conflict || x.id == rule::duplicate_route || x.id == rule::route_in_overlay;
      bool overlap_rule = x.id == rule::overlap || x.id == rule::overlap_internal || x.id == rule::latent_overlap;
      if (!route_rule && !overlap_rule) continue;
      ASSERT_EQ(x.ranges.size(), 2u);
      auto i = std::min(x.ranges[0], x.ranges[1]), j = std::max(x.ranges[0], x.ranges[1]);
      ASSERT_TRUE((route_rule ? routes : overlaps).emplace(x.id, i, j).second) << "reported twice: " << x.message;
      if (x.id == rule::route_conflict && !f.ranges[x.ranges[1]].is_route()) {
        // The witness: the route's network routes the other range through the named connection.
        ASSERT_TRUE(x.routed_at.has_value());
        ASSERT_EQ(*x.routed_at, f.ranges[x.ranges[0]].owner);
        ASSERT_TRUE(routed_at(f, x.ranges[1], *x.routed_at)) << x.message;
      }
    }
    ASSERT_EQ(overlaps, brute_force(f)) << "round " << round;
    ASSERT_EQ(routes, brute_force_routes(f)) << "round " << round;
    for (const auto& [id, i, j] : routes) {
      ++seen[id == rule::route_conflict ? 0 : id == rule::duplicate_route ? 1 : 2];
    }
  }
  for (auto n : seen) EXPECT_GT(n, 100u);
}

TEST(CheckProperty, TranslatedConnectionFindingsEqualTheBruteForceSemantics) {
  test::random_source rng(17);
  catalog empty;
  std::size_t globals = 0, hidden = 0;  // the test must see both global clashes and overlaps a NAT hides
  for (int round = 0; round < 3000; ++round) {
    auto f = random_fleet(rng, {.routes = true, .nat = true});
    auto findings = check(f, empty);
    std::set<key> overlaps, global;
    for (const auto& x : findings) {
      bool overlap_rule = x.id == rule::overlap || x.id == rule::overlap_internal || x.id == rule::latent_overlap;
      if (!overlap_rule && x.id != rule::global_range_overlap) continue;
      ASSERT_EQ(x.ranges.size(), 2u);
      auto i = std::min(x.ranges[0], x.ranges[1]), j = std::max(x.ranges[0], x.ranges[1]);
      ASSERT_TRUE((overlap_rule ? overlaps : global).emplace(x.id, i, j).second) << "reported twice: " << x.message;
      if (!overlap_rule) {
        ASSERT_TRUE(f.ranges[x.ranges[0]].is_translated()) << "a global range first: " << x.message;
      }
    }
    ASSERT_EQ(overlaps, brute_force(f)) << "round " << round;
    ASSERT_EQ(global, brute_force_globals(f)) << "round " << round;
    globals += global.size();
    for (std::uint32_t i = 0; i < f.ranges.size(); ++i) {
      for (std::uint32_t j = i + 1; j < f.ranges.size(); ++j) {
        const auto& a = f.ranges[i];
        const auto& b = f.ranges[j];
        if (a.is_plain() && b.is_plain() && a.owner != b.owner && a.cidr.overlaps(b.cidr) &&
            share_translation(f, a.owner, b.owner) && !overlaps.contains({rule::overlap, i, j})) {
          ++hidden;
        }
      }
    }
  }
  EXPECT_GT(globals, 100u);
  EXPECT_GT(hidden, 100u);
}

// The overlap, route and global-range rules on fleets whose connections
// withdraw prefixes; the test must see findings the withdrawals remove.
TEST(CheckProperty, WithdrawnPrefixesEqualTheBruteForceSemantics) {
  test::random_source rng(19);
  catalog empty;
  std::size_t removed = 0;
  auto rule_keys = [](const std::vector<finding>& findings) {
    std::set<key> out;
    for (const auto& x : findings) {
      if (x.ranges.size() == 2) out.emplace(x.id, std::min(x.ranges[0], x.ranges[1]), std::max(x.ranges[0], x.ranges[1]));
    }
    return out;
  };
  for (int round = 0; round < 3000; ++round) {
    auto f = random_fleet(rng, {.routes = true, .nat = round % 2 == 1, .withdrawn = true});
    auto got = rule_keys(check(f, empty));
    std::set<key> want = brute_force(f);
    want.merge(brute_force_routes(f));
    want.merge(brute_force_globals(f));
    std::set<key> overlap_and_route;
    for (const auto& k : got) {
      auto id = std::get<0>(k);
      if (id == rule::overlap || id == rule::overlap_internal || id == rule::latent_overlap || id == rule::route_conflict ||
          id == rule::duplicate_route || id == rule::route_in_overlay || id == rule::global_range_overlap) {
        overlap_and_route.insert(k);
      }
    }
    ASSERT_EQ(overlap_and_route, want) << "round " << round;
    auto carried_everything = f;
    for (auto& c : carried_everything.connections) c.withdrawn.clear();
    auto before = rule_keys(check(carried_everything, empty));
    for (const auto& k : before) removed += !got.contains(k);
  }
  EXPECT_GT(removed, 100u);
}

TEST(CheckProperty, OutputIsDeterministic) {
  test::random_source rng(12);
  catalog empty;
  for (int round = 0; round < 200; ++round) {
    auto f = random_fleet(rng);
    auto a = check(f, empty);
    auto b = check(f, empty);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
      ASSERT_EQ(a[k].message, b[k].message);
      ASSERT_EQ(a[k].ranges, b[k].ranges);
    }
  }
}

}  // namespace
}  // namespace cidrcheck
