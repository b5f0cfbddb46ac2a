// On random fleets: the applied plan checks without errors (unless it says what
// it could not resolve), pins hold, new ranges lie in their pools with the same
// length, every move is transition-safe, and the cost equals the optimum found
// by trying every subset of ranges to move (a cluster pays once per role moved:
// one in-place operation moves all of them).

#include "../unit/random.hpp"

#include <cidrcheck/address_set.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <set>
#include <vector>

namespace cidrcheck {
namespace {

// Ranges in a small universe (10.0.0.0/24, /24../28) so that conflicts are
// common. Clusters use a /28 node mask, so no rule needs a resize and every
// move keeps its length.
auto random_fleet(test::random_source& rng) -> fleet {
  fleet f;
  auto owners = 2 + rng() % 5;
  for (unsigned k = 0; k < owners; ++k) {
    owner o;
    o.name = "o" + std::to_string(k);
    o.kind = rng() % 4 == 0 ? owner_kind::network : owner_kind::cluster;
    o.movable = rng() % 2 == 0;
    o.node_cidr_mask = 28;
    f.owners.push_back(o);
    auto ranges = 1 + rng() % 2;
    for (unsigned j = 0; j < ranges; ++j) {
      fleet_range r;
      int length = 24 + static_cast<int>(rng() % 5);
      r.cidr = prefix::containing(address::v4(0x0a000000u + (rng() % 256)), length);
      r.owner = k;
      r.role = o.kind == owner_kind::network ? range_role::external : static_cast<range_role>(rng() % 3);
      r.where = {"f", static_cast<std::uint32_t>(f.ranges.size() + 1), 1};
      f.owners[k].ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
      f.ranges.push_back(r);
    }
  }
  for (unsigned c = 0, n = rng() % 4; c < n; ++c) {
    connection conn;
    std::set<std::uint32_t> members;
    while (members.size() < 2) members.insert(rng() % owners);
    conn.members.assign(members.begin(), members.end());
    conn.routes = role_set{static_cast<std::uint8_t>(rng() % 8)};
    f.connections.push_back(conn);
  }
  if (rng() % 3 == 0) f.plan.pins.push_back({"o" + std::to_string(rng() % owners), {}});
  for (auto& cost : f.plan.cost) cost = 1 + static_cast<int>(rng() % 4);
  return f;
}

auto error_count(const fleet& f, const catalog& c) -> std::size_t {
  auto findings = check(f, c);
  return static_cast<std::size_t>(
      std::count_if(findings.begin(), findings.end(), [](const finding& x) { return x.level == severity::error; }));
}

auto role_cost(const fleet& f, const fleet_range& r) -> int {
  return *f.plan.cost[r.role == range_role::external ? 0 : static_cast<std::size_t>(r.role)];
}

// The cheapest set of ranges whose moving (each to fresh space far away)
// leaves no error, by trying every subset of the movable ranges; nullopt if none.
// A cluster's ranges of one role move in one operation, paid once; a network's
// ranges are renumbered one by one.
auto exhaustive_optimum(const fleet& f, const catalog& c, const std::vector<bool>& movable) -> std::optional<int> {
  const auto n = static_cast<std::uint32_t>(f.ranges.size());
  std::optional<int> best;
  for (std::uint32_t subset = 0; subset < (1u << n); ++subset) {
    int cost = 0;
    bool allowed = true;
    std::set<std::pair<std::uint32_t, range_role>> paid;
    fleet g = f;
    for (std::uint32_t k = 0; k < n; ++k) {
      if (!(subset >> k & 1)) continue;
      if (!movable[k]) {
        allowed = false;
        break;
      }
      const auto& r = f.ranges[k];
      if (r.role == range_role::external || paid.emplace(r.owner, r.role).second) cost += role_cost(f, r);
      g.ranges[k].cidr = prefix::containing(address::v4(0xac100000u + (k << 8)), g.ranges[k].cidr.length());
    }
    if (!allowed || (best && cost >= *best)) continue;
    if (error_count(g, c) == 0) best = cost;
  }
  return best;
}

TEST(PlanProperty, PlansAreValidSafeAndCheapest) {
  test::random_source rng(21);
  // No defaults or blocks, only the shipped operations: clusters of no known
  // distribution get one in-place operation per role, whose base the fleet's
  // per-role costs replace, so the cheapest operations are the cheapest roles.
  catalog empty;
  empty.operations = builtin_catalog().operations;
  int planned = 0, unresolvable = 0;
  for (int round = 0; round < 1500; ++round) {
    auto f = random_fleet(rng);
    auto p = plan(f, empty);
    auto applied = apply_plan(f, p);
    // Pinned or immovable ranges stay; everything else of the plan is well formed.
    std::vector<bool> movable(f.ranges.size(), true);
    for (std::uint32_t k = 0; k < f.ranges.size(); ++k) {
      const auto& o = f.owners[f.ranges[k].owner];
      bool pinned = o.kind == owner_kind::network && !o.movable;
      for (const auto& pin : f.plan.pins) pinned = pinned || pin.pattern == o.name;
      movable[k] = !pinned;
    }
    address_set_builder old_ranges;
    for (const auto& r : f.ranges) old_ranges.add(r.cidr);
    auto old_space = old_ranges.build();
    int cost = 0;
    for (const auto& c : p.changes) {
      ASSERT_TRUE(c.range.has_value());
      ASSERT_TRUE(movable[*c.range]) << "round " << round << ": a pinned range moved";
      ASSERT_EQ(c.to.length(), c.from.length());
      ASSERT_TRUE(c.to.subnet_of(prefix::parse("10.0.0.0/8")) || c.to.subnet_of(prefix::parse("172.16.0.0/12")) ||
                  c.to.subnet_of(prefix::parse("192.168.0.0/16")));
      ASSERT_TRUE(c.transition_safe);
      ASSERT_FALSE(old_space.overlaps(c.to)) << "round " << round;
      cost += c.cost;
    }
    ASSERT_EQ(cost, p.total_cost);
    auto optimum = exhaustive_optimum(f, empty, movable);
    if (!optimum) {
      ASSERT_FALSE(p.complete()) << "round " << round << ": no valid plan exists, yet the plan claims complete";
      ++unresolvable;
      continue;
    }
    ASSERT_TRUE(p.complete()) << "round " << round << ": " << (p.problems.empty() ? "" : p.problems[0].message);
    ASSERT_EQ(error_count(applied, empty), 0u) << "round " << round;
    ASSERT_TRUE(p.optimal);
    ASSERT_EQ(p.total_cost, *optimum) << "round " << round;
    ++planned;
  }
  // The generator must exercise both outcomes.
  EXPECT_GT(planned, 800);
  EXPECT_GT(unresolvable, 20);
}

}  // namespace
}  // namespace cidrcheck
