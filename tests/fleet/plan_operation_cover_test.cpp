// The operation chooser (lib/cidrcheck/fleet/operation_cover.hpp): its cost
// equals an exhaustive search on random problems of every shape it handles
// (single-item operations, i.e. vertex covers; multi-item operations; forced
// items; items no operation covers), and its budget says so when it runs out.

#include "../../lib/cidrcheck/fleet/operation_cover.hpp"
#include "../unit/random.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

namespace cidrcheck::detail {
namespace {

struct spec {
  std::vector<uint128> weights;
  std::vector<std::vector<std::uint32_t>> covers;  // per operation: its items
  std::size_t items = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> constraints;
};

auto build(const spec& s) -> operation_problem {
  operation_problem p;
  p.weights = s.weights;
  p.item_start.assign(s.items + 1, 0);
  for (const auto& c : s.covers) {
    for (auto item : c) ++p.item_start[item + 1];
  }
  for (std::size_t k = 1; k < p.item_start.size(); ++k) p.item_start[k] += p.item_start[k - 1];
  p.item_ops.resize(p.item_start.back());
  auto fill = p.item_start;
  for (std::uint32_t op = 0; op < s.covers.size(); ++op) {
    for (auto item : s.covers[op]) p.item_ops[fill[item]++] = op;
  }
  p.constraints = s.constraints;
  return p;
}

auto covered(const spec& s, const std::vector<bool>& chosen, std::uint32_t item) -> bool {
  for (std::uint32_t op = 0; op < s.covers.size(); ++op) {
    if (!chosen[op]) continue;
    for (auto x : s.covers[op]) {
      if (x == item) return true;
    }
  }
  return false;
}

// The cheapest set of operations covering every constraint that any set covers.
auto exhaustive(const spec& s) -> uint128 {
  const auto n = s.weights.size();
  std::vector<bool> all(n, true);
  uint128 best = ~uint128{0};
  for (std::uint32_t subset = 0; subset < (1u << n); ++subset) {
    std::vector<bool> chosen(n);
    uint128 cost = 0;
    for (std::uint32_t k = 0; k < n; ++k) {
      chosen[k] = (subset >> k & 1) != 0;
      if (chosen[k]) cost += s.weights[k];
    }
    bool ok = true;
    for (auto [a, b] : s.constraints) {
      bool possible = covered(s, all, a) || covered(s, all, b);
      if (possible && !covered(s, chosen, a) && !covered(s, chosen, b)) ok = false;
    }
    if (ok && cost < best) best = cost;
  }
  return best;
}

auto random_spec(test::random_source& rng, bool multi) -> spec {
  spec s;
  s.items = 2 + rng() % 9;
  auto ops = 1 + rng() % 12;
  for (unsigned k = 0; k < ops; ++k) {
    s.weights.push_back(1 + rng() % 20);
    std::vector<std::uint32_t> items{static_cast<std::uint32_t>(rng() % s.items)};
    if (multi && rng() % 3 == 0) {
      for (unsigned extra = 0, e = 1 + rng() % 3; extra < e; ++extra) {
        auto item = static_cast<std::uint32_t>(rng() % s.items);
        if (std::find(items.begin(), items.end(), item) == items.end()) items.push_back(item);
      }
    }
    s.covers.push_back(items);
  }
  for (unsigned c = 0, n = 1 + rng() % 14; c < n; ++c) {
    auto a = static_cast<std::uint32_t>(rng() % s.items);
    auto b = rng() % 5 == 0 ? a : static_cast<std::uint32_t>(rng() % s.items);
    s.constraints.emplace_back(a, b);
  }
  return s;
}

auto chosen_cost(const spec& s, const operation_choice& r) -> uint128 {
  uint128 cost = 0;
  for (std::size_t k = 0; k < r.chosen.size(); ++k) {
    if (r.chosen[k]) cost += s.weights[k];
  }
  return cost;
}

void expect_exact(const spec& s, unsigned seed) {
  auto r = choose_operations(build(s));
  ASSERT_TRUE(r.optimal) << "seed " << seed;
  std::vector<bool> all(s.weights.size(), true);
  for (auto [a, b] : s.constraints) {
    bool possible = covered(s, all, a) || covered(s, all, b);
    if (possible) {
      EXPECT_TRUE(covered(s, r.chosen, a) || covered(s, r.chosen, b)) << "seed " << seed;
    }
  }
  EXPECT_EQ(static_cast<std::uint64_t>(chosen_cost(s, r)), static_cast<std::uint64_t>(exhaustive(s))) << "seed " << seed;
}

TEST(OperationCover, SingleItemOperationsMatchExhaustiveSearch) {
  for (unsigned seed = 0; seed < 1500; ++seed) {
    test::random_source rng(seed);
    expect_exact(random_spec(rng, false), seed);
  }
}

TEST(OperationCover, MultiItemOperationsMatchExhaustiveSearch) {
  for (unsigned seed = 0; seed < 1500; ++seed) {
    test::random_source rng(seed + 100'000);
    expect_exact(random_spec(rng, true), seed);
  }
}

TEST(OperationCover, ReplacementTakesBothSidesOnce) {
  // Items 0 (network) and 1 (services) of one cluster, each in conflict with a
  // pinned item; only a replacement (op 0) covers them: it is chosen once.
  spec s;
  s.items = 4;
  s.weights = {20};
  s.covers = {{0, 1}};
  s.constraints = {{0, 2}, {1, 3}};
  auto r = choose_operations(build(s));
  EXPECT_TRUE(r.chosen[0]);
  EXPECT_TRUE(r.feasible);
}

TEST(OperationCover, DominatedReplacementIsNotChosen) {
  // In-place ops 1 and 2 cover the two items for 5; the replacement costs 20.
  spec s;
  s.items = 4;
  s.weights = {20, 2, 3};
  s.covers = {{0, 1}, {0}, {1}};
  s.constraints = {{0, 2}, {1, 3}};
  auto r = choose_operations(build(s));
  EXPECT_FALSE(r.chosen[0]);
  EXPECT_TRUE(r.chosen[1]);
  EXPECT_TRUE(r.chosen[2]);
}

TEST(OperationCover, UncoverableConstraintIsInfeasible) {
  spec s;
  s.items = 2;
  s.weights = {1};
  s.covers = {{0}};
  s.constraints = {{1, 1}};
  EXPECT_FALSE(choose_operations(build(s)).feasible);
}

TEST(OperationCover, BudgetExhaustedSaysNotOptimal) {
  // A dense problem of multi-item operations with a budget of one node: the
  // branch and bound stops and says so, and still covers every constraint.
  spec s;
  s.items = 30;
  for (std::uint32_t k = 0; k < 40; ++k) {
    s.weights.push_back(10 + k % 7);
    s.covers.push_back({k % 30, (k * 7 + 3) % 30, (k * 11 + 5) % 30});
  }
  for (std::uint32_t a = 0; a < 30; ++a) {
    for (std::uint32_t b = a + 1; b < 30; b += 4) s.constraints.emplace_back(a, b);
  }
  auto r = choose_operations(build(s), 1);
  EXPECT_FALSE(r.optimal);
  std::vector<bool> all(s.weights.size(), true);
  for (auto [a, b] : s.constraints) EXPECT_TRUE(covered(s, r.chosen, a) || covered(s, r.chosen, b));
}

TEST(OperationCover, LargeCliqueOfSingleItemOperationsIsExact) {
  // 300 clusters sharing one service range: every one but one moves; the vertex
  // cover path solves the clique directly.
  spec s;
  s.items = 300;
  for (std::uint32_t k = 0; k < 300; ++k) {
    s.weights.push_back(2);
    s.covers.push_back({k});
  }
  for (std::uint32_t a = 0; a < 300; ++a) {
    for (std::uint32_t b = a + 1; b < 300; ++b) s.constraints.emplace_back(a, b);
  }
  auto r = choose_operations(build(s));
  EXPECT_TRUE(r.optimal);
  EXPECT_EQ(std::count(r.chosen.begin(), r.chosen.end(), true), 299);
}

}  // namespace
}  // namespace cidrcheck::detail
