#pragma once
// Exact choice of operations for a plan: the set of least total weight such
// that every constraint (a conflict between two items, or one item that must
// change) has an item covered by a chosen operation. An item is a range, or a
// cluster's pod space; an operation covers one item (an in-place move) or
// several (a replacement cluster, a VPC with every cluster in it).
//
// This is weighted hitting set, NP-hard in general; the solver reduces it, per
// connected component, to what fleets make it: operations dominated by cheaper
// single-item ones are dropped, items covered by the same operations merge, and
// a component where every operation then covers one item is a vertex cover
// (vertex_cover.hpp: reductions, cliques, branch and bound). The rest runs a
// branch and bound over operations with a packing lower bound, within a budget.

#include <cidrcheck/detail/u128.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace cidrcheck::detail {

/// The problem, compactly: 8 bytes per constraint, 4 per (item, operation) pair.
struct operation_problem {
  std::vector<uint128> weights;  ///< per operation; comparisons are exact (tie-breaks packed in low bits)
  /// Item k is covered by item_ops[item_start[k] .. item_start[k+1]); item_start has items+1 entries.
  std::vector<std::uint32_t> item_start, item_ops;
  /// Pairs of items of which one must be covered; (a, a) when item a must be.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> constraints;

  auto items() const -> std::size_t { return item_start.empty() ? 0 : item_start.size() - 1; }
};

struct operation_choice {
  std::vector<bool> chosen;  ///< per operation
  bool optimal = true;       ///< false when a component ran out of search budget
  bool feasible = true;      ///< false when some constraint has no operation at all (left uncovered)
};

/// Returns a least-weight set of operations covering every constraint that can be covered.
/// node_budget bounds the search nodes per component, as in minimum_weight_vertex_cover.
auto choose_operations(const operation_problem& problem, std::size_t node_budget = 200'000) -> operation_choice;

}  // namespace cidrcheck::detail
