// The exact vertex-cover solver (lib/cidrcheck/fleet/vertex_cover.hpp): its
// cost equals brute force on random small graphs, each of its paths (cliques,
// reductions, branch and bound, the budget) runs and is counted in
// cover_result::stats, weights (packed, pinned) are honoured exactly.

#include "../../lib/cidrcheck/fleet/vertex_cover.hpp"
#include "../unit/random.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace cidrcheck::detail {
namespace {

using edge_list = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

auto is_pinned(const std::vector<uint128>& w, std::uint32_t v) -> bool { return w[v] >= pinned_weight; }

// Every edge that a cover can resolve (not a loop, not two pinned ends) is covered.
auto covers_all(const std::vector<uint128>& w, const edge_list& edges, const std::vector<bool>& chosen) -> bool {
  for (auto [u, v] : edges) {
    if (u == v || (is_pinned(w, u) && is_pinned(w, v))) continue;
    if (!chosen[u] && !chosen[v]) return false;
  }
  return true;
}

// The cheapest cover among all 2^n subsets that choose no pinned vertex.
auto brute_force(const std::vector<uint128>& w, const edge_list& edges) -> uint128 {
  const auto n = static_cast<std::uint32_t>(w.size());
  uint128 best = uint128_max;
  std::vector<bool> chosen(n);
  for (std::uint32_t subset = 0; subset < (1u << n); ++subset) {
    uint128 cost = 0;
    bool allowed = true;
    for (std::uint32_t k = 0; k < n; ++k) {
      chosen[k] = (subset >> k & 1) != 0;
      if (!chosen[k]) continue;
      if (is_pinned(w, k)) allowed = false;
      cost = add_saturating(cost, w[k]);
    }
    if (allowed && cost < best && covers_all(w, edges, chosen)) best = cost;
  }
  return best;
}

// A random graph of up to 12 vertices: weights with ties, packed tie-breaks,
// now and then a pinned vertex, repeated edges and loops.
auto random_graph(test::random_source& rng) -> std::pair<std::vector<uint128>, edge_list> {
  const auto n = 1 + rng() % 12;
  std::vector<uint128> w;
  for (unsigned k = 0; k < n; ++k) {
    auto roll = rng() % 10;
    if (roll == 0) {
      w.push_back(pinned_weight);
    } else if (roll < 4) {
      w.push_back(static_cast<uint128>(1 + rng() % 4) << 64 | (rng() % 3));  // cost, then a tie-break
    } else {
      w.push_back(1 + rng() % 30);
    }
  }
  edge_list edges;
  // Sparse or dense: dense graphs are often cliques, sparse ones reduce.
  const auto m = rng() % 2 == 0 ? rng() % (n + 1) : rng() % (n * n / 2 + 1);
  for (unsigned e = 0; e < m; ++e) edges.emplace_back(rng() % n, rng() % n);
  return {w, edges};
}

auto u64(uint128 v) -> std::pair<std::uint64_t, std::uint64_t> {
  return {static_cast<std::uint64_t>(v >> 64), static_cast<std::uint64_t>(v)};
}

TEST(VertexCover, MatchesBruteForceOnRandomSmallGraphs) {
  cover_stats total;
  std::size_t searched_beyond_root = 0;
  for (unsigned seed = 0; seed < 2000; ++seed) {
    test::random_source rng(seed);
    auto [w, edges] = random_graph(rng);
    auto r = minimum_weight_vertex_cover(w, edges);
    ASSERT_TRUE(r.optimal) << "seed " << seed;
    bool pinned_pair = false;
    for (auto [u, v] : edges) pinned_pair = pinned_pair || (u != v && is_pinned(w, u) && is_pinned(w, v));
    EXPECT_EQ(r.feasible, !pinned_pair) << "seed " << seed;
    EXPECT_TRUE(covers_all(w, edges, r.in_cover)) << "seed " << seed;
    for (std::uint32_t v = 0; v < w.size(); ++v) EXPECT_FALSE(r.in_cover[v] && is_pinned(w, v)) << "seed " << seed;
    EXPECT_EQ(u64(weight_of(r.in_cover, w)), u64(brute_force(w, edges))) << "seed " << seed;
    total.cliques += r.stats.cliques;
    total.reduced += r.stats.reduced;
    total.search_nodes += r.stats.search_nodes;
    if (r.stats.search_nodes > 1) ++searched_beyond_root;
  }
  // The random graphs reach every path, not only the easy ones.
  EXPECT_GT(total.cliques, 100u);
  EXPECT_GT(total.reduced, 100u);
  EXPECT_GT(searched_beyond_root, 50u);
}

TEST(VertexCover, SolvesACliqueByKeepingItsHeaviestVertex) {
  // K_n for n = 2..40: far beyond brute force at 40, and no search node is spent.
  for (std::uint32_t n = 2; n <= 40; ++n) {
    test::random_source rng(n);
    std::vector<uint128> w;
    uint128 total = 0, heaviest = 0;
    for (std::uint32_t k = 0; k < n; ++k) {
      w.push_back(1 + rng() % 1000);
      total += w.back();
      heaviest = std::max(heaviest, w.back());
    }
    edge_list edges;
    for (std::uint32_t u = 0; u < n; ++u) {
      for (std::uint32_t v = u + 1; v < n; ++v) edges.emplace_back(v, u);
    }
    auto r = minimum_weight_vertex_cover(w, edges);
    EXPECT_EQ(r.stats.cliques, 1u) << n;
    EXPECT_EQ(r.stats.search_nodes, 0u) << n;
    EXPECT_TRUE(covers_all(w, edges, r.in_cover)) << n;
    EXPECT_EQ(u64(weight_of(r.in_cover, w)), u64(total - heaviest)) << n;
    if (n <= 12) {
      EXPECT_EQ(u64(weight_of(r.in_cover, w)), u64(brute_force(w, edges))) << n;
    }
  }
}

TEST(VertexCover, KeepsTheLastOfEquallyHeavyCliqueVertices) {
  // Three disjoint triangles, one component each, all weights equal.
  std::vector<uint128> w(9, 5);
  edge_list edges;
  for (std::uint32_t t = 0; t < 9; t += 3) edges.insert(edges.end(), {{t, t + 1}, {t + 1, t + 2}, {t, t + 2}});
  auto r = minimum_weight_vertex_cover(w, edges);
  EXPECT_EQ(r.stats.cliques, 3u);
  EXPECT_EQ(r.in_cover, (std::vector<bool>{true, true, false, true, true, false, true, true, false}));
}

TEST(VertexCover, ReducesAStarWithoutBranching) {
  // A network (vertex 0) against five clusters: whichever side is lighter in
  // total is covered, settled by the reduction at the first search node.
  edge_list star{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}};
  auto heavy_centre = minimum_weight_vertex_cover({10, 1, 1, 1, 1, 1}, star);
  EXPECT_EQ(heavy_centre.in_cover, (std::vector<bool>{false, true, true, true, true, true}));
  EXPECT_GE(heavy_centre.stats.reduced, 1u);
  EXPECT_EQ(heavy_centre.stats.search_nodes, 1u);
  EXPECT_EQ(heavy_centre.stats.cliques, 0u);

  auto light_centre = minimum_weight_vertex_cover({1, 10, 10, 10, 10, 10}, star);
  EXPECT_EQ(light_centre.in_cover, (std::vector<bool>{true, false, false, false, false, false}));
  EXPECT_GE(light_centre.stats.reduced, 1u);
  EXPECT_EQ(light_centre.stats.search_nodes, 1u);
}

// A random graph of 60 vertices and 480 edges, weights all 1: too dense for
// the reductions to settle and for the edge-packing bound to prune early, so
// the search takes more than the 64-node floor of the budget.
auto dense_graph() -> edge_list {
  test::random_source rng(60);
  edge_list edges;
  for (unsigned e = 0; e < 480; ++e) edges.emplace_back(rng() % 60, rng() % 60);
  return edges;
}

TEST(VertexCover, RunsOutOfBudgetWithAValidCoverAndSaysSo) {
  std::vector<uint128> w(60, 1);
  auto edges = dense_graph();
  // node_budget 1 is raised to the floor of 64 nodes per component.
  auto starved = minimum_weight_vertex_cover(w, edges, 1);
  EXPECT_FALSE(starved.optimal);
  EXPECT_GT(starved.stats.search_nodes, 64u);
  EXPECT_TRUE(covers_all(w, edges, starved.in_cover));

  auto full = minimum_weight_vertex_cover(w, edges);
  EXPECT_TRUE(full.optimal);
  EXPECT_GT(full.stats.search_nodes, starved.stats.search_nodes);
  EXPECT_TRUE(covers_all(w, edges, full.in_cover));
  EXPECT_LE(weight_of(full.in_cover, w), weight_of(starved.in_cover, w));
}

TEST(VertexCover, HonoursWeights) {
  // A path a-b-c: a heavy middle is left out, a light one taken.
  edge_list path{{0, 1}, {1, 2}};
  EXPECT_EQ(minimum_weight_vertex_cover({1, 3, 1}, path).in_cover, (std::vector<bool>{true, false, true}));
  EXPECT_EQ(minimum_weight_vertex_cover({2, 3, 2}, path).in_cover, (std::vector<bool>{false, true, false}));
  // Packed weights compare exactly: equal cost, the smaller tie-break is moved.
  uint128 cost = uint128{7} << 64;
  EXPECT_EQ(minimum_weight_vertex_cover({cost | 2, cost | 1}, {{0, 1}}).in_cover, (std::vector<bool>{false, true}));
  EXPECT_EQ(minimum_weight_vertex_cover({cost | 1, cost | 2}, {{0, 1}}).in_cover, (std::vector<bool>{true, false}));
  // A pinned vertex is never chosen, however heavy its neighbour.
  auto pinned = minimum_weight_vertex_cover({pinned_weight, uint128{1} << 100, 1}, {{0, 1}, {1, 2}});
  EXPECT_EQ(pinned.in_cover, (std::vector<bool>{false, true, false}));
  EXPECT_TRUE(pinned.feasible);
}

TEST(VertexCover, ReportsTwoPinnedNeighboursAsInfeasibleAndCoversTheRest) {
  auto r = minimum_weight_vertex_cover({pinned_weight, pinned_weight, 4, 9}, {{0, 1}, {1, 2}, {2, 3}});
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.in_cover, (std::vector<bool>{false, false, true, false}));
}

TEST(VertexCover, IgnoresLoopsRepeatsAndIsolatedVertices) {
  auto r = minimum_weight_vertex_cover({1, 2, 3}, {{0, 0}, {1, 2}, {2, 1}, {1, 2}});
  EXPECT_EQ(r.in_cover, (std::vector<bool>{false, true, false}));
  EXPECT_TRUE(minimum_weight_vertex_cover({}, {}).in_cover.empty());
}

}  // namespace
}  // namespace cidrcheck::detail
