#pragma once
// Exact minimum-weight vertex cover, for choosing which ranges a plan moves:
// every conflicting pair must lose one side, and the sides cost differently.
//
// Weighted vertex cover is NP-hard in general, but the conflict graphs of real
// fleets fall apart into small components, cliques (clusters that share one
// range) and stars (many clusters against one network). The solver applies
// the exact reductions, solves cliques directly, and runs branch and bound
// with an edge-packing lower bound on the rest, within a node budget; a
// component that runs out of budget keeps the best cover found and says so.

#include <cidrcheck/detail/u128.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace cidrcheck::detail {

/// Returns a + b, or uint128_max when the sum does not fit.
constexpr auto add_saturating(uint128 a, uint128 b) -> uint128 { return a > uint128_max - b ? uint128_max : a + b; }

/// Returns the total weight of the chosen items (saturating).
inline auto weight_of(const std::vector<bool>& chosen, const std::vector<uint128>& weights) -> uint128 {
  uint128 total = 0;
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    if (chosen[k]) total = add_saturating(total, weights[k]);
  }
  return total;
}

/// A weight no cover may pay: the vertex is pinned.
inline constexpr uint128 pinned_weight = ~uint128{0} >> 8;

/// Counts of the solver's paths over all components, so that tests can show
/// each path ran and benches can report the work done.
struct cover_stats {
  std::size_t cliques = 0;       ///< components solved directly as cliques
  std::size_t reduced = 0;       ///< vertices settled by an exact reduction
  std::size_t search_nodes = 0;  ///< branch-and-bound nodes entered (budget overruns included)
};

struct cover_result {
  std::vector<bool> in_cover;  ///< per vertex
  bool optimal = true;         ///< false when a component ran out of search budget
  bool feasible = true;        ///< false when an edge joins two pinned vertices
  cover_stats stats;
};

/// Returns a minimum-weight vertex cover of the graph with the given vertex
/// weights and edges (pairs of vertex indexes; repeats and loops are fine).
/// Weights are compared exactly, so lexicographic preferences can be packed into
/// one uint128 (cost, then tie-breaks). Vertices of weight pinned_weight are
/// never chosen; an edge between two of them makes the result infeasible.
/// node_budget bounds the branch-and-bound nodes per component.
auto minimum_weight_vertex_cover(const std::vector<uint128>& weights,
                                 const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges,
                                 std::size_t node_budget = 200'000) -> cover_result;

}  // namespace cidrcheck::detail
