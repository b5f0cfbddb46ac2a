#include "operation_cover.hpp"

#include "vertex_cover.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace cidrcheck::detail {

namespace {

struct union_find {
  std::vector<std::uint32_t> parent;
  explicit union_find(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
  auto find(std::uint32_t x) -> std::uint32_t {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(std::uint32_t a, std::uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

// Branch and bound over one component: each constraint is the list of
// operations (local numbers) that cover it; choose the cheapest hitting set.
class hitting_set_solver {
 public:
  hitting_set_solver(std::vector<uint128> weights, std::vector<std::vector<std::uint32_t>> sets, std::size_t budget)
      : w_(std::move(weights)), sets_(std::move(sets)), budget_(budget) {
    for (auto& s : sets_) {
      // Cheapest first: the first branch is then the greedy choice.
      std::stable_sort(s.begin(), s.end(), [&](auto a, auto b) { return w_[a] < w_[b]; });
    }
  }

  auto solve() -> std::vector<bool> {
    best_ = greedy();
    best_cost_ = weight_of(best_, w_);
    std::vector<char> state(w_.size(), free_op);
    search(std::move(state), 0);
    return best_;
  }
  auto optimal() const -> bool { return nodes_ <= budget_; }

 private:
  static constexpr char free_op = 0, chosen_op = 1, excluded_op = 2;

  // The cheapest operation of each constraint not yet hit, then every chosen
  // operation that nothing needs dropped, heaviest first.
  auto greedy() const -> std::vector<bool> {
    std::vector<bool> chosen(w_.size(), false);
    for (const auto& s : sets_) {
      if (std::none_of(s.begin(), s.end(), [&](auto op) { return chosen[op]; })) chosen[s.front()] = true;
    }
    std::vector<std::uint32_t> hits(sets_.size(), 0);
    for (std::size_t c = 0; c < sets_.size(); ++c) {
      for (auto op : sets_[c]) hits[c] += chosen[op] ? 1 : 0;
    }
    std::vector<std::vector<std::uint32_t>> of_op(w_.size());
    for (std::uint32_t c = 0; c < sets_.size(); ++c) {
      for (auto op : sets_[c]) of_op[op].push_back(c);
    }
    std::vector<std::uint32_t> order(w_.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return w_[a] > w_[b]; });
    for (auto op : order) {
      if (!chosen[op]) continue;
      bool needed = std::any_of(of_op[op].begin(), of_op[op].end(), [&](auto c) { return hits[c] == 1; });
      if (needed) continue;
      chosen[op] = false;
      for (auto c : of_op[op]) --hits[c];
    }
    return chosen;
  }

  void search(std::vector<char> state, uint128 cost) {
    if (++nodes_ > budget_) return;
    // Unit propagation: a constraint with one operation left takes it.
    std::vector<std::uint32_t> open;
    for (bool changed = true; changed;) {
      changed = false;
      open.clear();
      for (std::uint32_t c = 0; c < sets_.size(); ++c) {
        std::size_t available = 0;
        std::uint32_t last = 0;
        bool hit = false;
        for (auto op : sets_[c]) {
          if (state[op] == chosen_op) {
            hit = true;
            break;
          }
          if (state[op] == free_op) {
            ++available;
            last = op;
          }
        }
        if (hit) continue;
        if (available == 0) return;  // this branch cannot cover c
        if (available == 1) {
          state[last] = chosen_op;
          cost = add_saturating(cost, w_[last]);
          changed = true;
          continue;
        }
        open.push_back(c);
      }
    }
    if (open.empty()) {
      if (cost < best_cost_) {
        best_cost_ = cost;
        for (std::size_t k = 0; k < state.size(); ++k) best_[k] = state[k] == chosen_op;
      }
      return;
    }
    // Lower bound: a packing of the open constraints into the free operations' weights (the LP dual).
    std::vector<uint128> residual = w_;
    uint128 bound = 0;
    std::uint32_t pick = open.front();
    std::size_t pick_size = ~std::size_t{0};
    for (auto c : open) {
      uint128 d = uint128_max;
      std::size_t size = 0;
      for (auto op : sets_[c]) {
        if (state[op] != free_op) continue;
        d = std::min(d, residual[op]);
        ++size;
      }
      for (auto op : sets_[c]) {
        if (state[op] == free_op) residual[op] -= d;
      }
      bound = add_saturating(bound, d);
      if (size < pick_size) {
        pick_size = size;
        pick = c;
      }
    }
    if (add_saturating(cost, bound) >= best_cost_) return;
    // Branch on the smallest open constraint: take its k-th operation, none of the earlier ones.
    auto branch = state;
    for (auto op : sets_[pick]) {
      if (branch[op] != free_op) continue;
      auto with = branch;
      with[op] = chosen_op;
      search(std::move(with), add_saturating(cost, w_[op]));
      branch[op] = excluded_op;
      if (nodes_ > budget_) return;
    }
  }

  std::vector<uint128> w_;
  std::vector<std::vector<std::uint32_t>> sets_;
  std::size_t budget_;
  std::size_t nodes_ = 0;
  std::vector<bool> best_;
  uint128 best_cost_ = uint128_max;
};

}  // namespace

auto choose_operations(const operation_problem& problem, std::size_t node_budget) -> operation_choice {
  const std::size_t items = problem.items();
  const std::size_t ops = problem.weights.size();
  operation_choice result;
  result.chosen.assign(ops, false);
  auto ops_of = [&](std::uint32_t item) {
    return std::pair(problem.item_ops.begin() + problem.item_start[item],
                     problem.item_ops.begin() + problem.item_start[item + 1]);
  };
  // Constrained items, and each operation's constrained items (CSR).
  std::vector<bool> constrained(items, false);
  for (auto [a, b] : problem.constraints) {
    constrained[a] = true;
    constrained[b] = true;
  }
  std::vector<std::uint32_t> op_start(ops + 1, 0);
  for (std::uint32_t item = 0; item < items; ++item) {
    if (!constrained[item]) continue;
    auto [begin, end] = ops_of(item);
    for (auto it = begin; it != end; ++it) ++op_start[*it + 1];
  }
  std::partial_sum(op_start.begin(), op_start.end(), op_start.begin());
  std::vector<std::uint32_t> op_items(op_start.back());
  {
    auto fill = op_start;
    for (std::uint32_t item = 0; item < items; ++item) {
      if (!constrained[item]) continue;
      auto [begin, end] = ops_of(item);
      for (auto it = begin; it != end; ++it) op_items[fill[*it]++] = item;
    }
  }
  // Components: items joined by a constraint or by an operation covering both.
  union_find uf(items);
  for (auto [a, b] : problem.constraints) uf.join(a, b);
  for (std::size_t op = 0; op < ops; ++op) {
    for (auto k = op_start[op] + 1; k < op_start[op + 1]; ++k) uf.join(op_items[op_start[op]], op_items[k]);
  }
  std::vector<std::uint32_t> component_of(items, ~0u);
  std::vector<std::vector<std::uint32_t>> component_items, component_constraints, component_ops;
  for (std::uint32_t item = 0; item < items; ++item) {
    if (!constrained[item]) continue;
    auto root = uf.find(item);
    if (component_of[root] == ~0u) {
      component_of[root] = static_cast<std::uint32_t>(component_items.size());
      component_items.emplace_back();
      component_constraints.emplace_back();
      component_ops.emplace_back();
    }
    component_of[item] = component_of[root];
    component_items[component_of[item]].push_back(item);
  }
  for (std::uint32_t c = 0; c < problem.constraints.size(); ++c) {
    component_constraints[component_of[problem.constraints[c].first]].push_back(c);
  }
  for (std::uint32_t op = 0; op < ops; ++op) {
    if (op_start[op] != op_start[op + 1]) component_ops[component_of[op_items[op_start[op]]]].push_back(op);
  }

  std::vector<bool> dropped(ops, false);
  for (std::size_t comp = 0; comp < component_items.size(); ++comp) {
    const auto& comp_ops = component_ops[comp];
    auto width = [&](std::uint32_t op) { return op_start[op + 1] - op_start[op]; };
    // Dominance: an operation covering several items is dropped when single-item
    // operations cover the same items for no more.
    for (auto op : comp_ops) {
      if (width(op) < 2) continue;
      uint128 alternative = 0;
      bool possible = true;
      for (auto k = op_start[op]; k < op_start[op + 1] && possible; ++k) {
        uint128 cheapest = uint128_max;
        auto [begin, end] = ops_of(op_items[k]);
        for (auto it = begin; it != end; ++it) {
          if (*it != op && !dropped[*it] && width(*it) == 1) cheapest = std::min(cheapest, problem.weights[*it]);
        }
        if (cheapest == uint128_max) possible = false;
        alternative = add_saturating(alternative, cheapest);
      }
      if (possible && alternative <= problem.weights[op]) dropped[op] = true;
    }
    // Items covered by the same operations are one vertex.
    std::map<std::vector<std::uint32_t>, std::uint32_t> vertex_of_set;
    std::vector<std::uint32_t> vertex_of_item;  // parallel to component_items[comp]
    std::vector<std::vector<std::uint32_t>> vertex_ops;
    for (auto item : component_items[comp]) {
      std::vector<std::uint32_t> set;
      auto [begin, end] = ops_of(item);
      for (auto it = begin; it != end; ++it) {
        if (!dropped[*it]) set.push_back(*it);
      }
      std::sort(set.begin(), set.end());
      set.erase(std::unique(set.begin(), set.end()), set.end());
      auto [it, added] = vertex_of_set.try_emplace(set, static_cast<std::uint32_t>(vertex_ops.size()));
      if (added) vertex_ops.push_back(set);
      vertex_of_item.push_back(it->second);
    }
    auto vertex = [&](std::uint32_t item) {
      auto at = std::lower_bound(component_items[comp].begin(), component_items[comp].end(), item);
      return vertex_of_item[static_cast<std::size_t>(at - component_items[comp].begin())];
    };
    // Each operation's vertices, to see whether every operation covers one vertex.
    std::map<std::uint32_t, std::uint32_t> op_vertex;
    bool single = true;
    for (std::uint32_t v = 0; v < vertex_ops.size() && single; ++v) {
      for (auto op : vertex_ops[v]) {
        auto [it, added] = op_vertex.try_emplace(op, v);
        if (!added && it->second != v) single = false;
      }
    }
    if (single) {
      // A vertex cover: a vertex costs its cheapest operation; a vertex without one is pinned.
      std::vector<uint128> weights(vertex_ops.size(), pinned_weight);
      std::vector<std::uint32_t> best_op(vertex_ops.size(), ~0u);
      for (std::uint32_t v = 0; v < vertex_ops.size(); ++v) {
        for (auto op : vertex_ops[v]) {
          if (best_op[v] == ~0u || problem.weights[op] < weights[v]) {
            weights[v] = problem.weights[op];
            best_op[v] = op;
          }
        }
      }
      std::vector<bool> forced(vertex_ops.size(), false);
      for (auto c : component_constraints[comp]) {
        auto [a, b] = problem.constraints[c];
        auto va = vertex(a), vb = vertex(b);
        if (va != vb) continue;
        if (best_op[va] == ~0u) result.feasible = false;
        else forced[va] = true;
      }
      std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
      for (auto c : component_constraints[comp]) {
        auto [a, b] = problem.constraints[c];
        auto va = vertex(a), vb = vertex(b);
        if (va == vb || forced[va] || forced[vb]) continue;
        edges.emplace_back(va, vb);
      }
      auto cover = minimum_weight_vertex_cover(weights, edges, node_budget);
      result.optimal = result.optimal && cover.optimal;
      result.feasible = result.feasible && cover.feasible;
      for (std::uint32_t v = 0; v < vertex_ops.size(); ++v) {
        if ((forced[v] || cover.in_cover[v]) && best_op[v] != ~0u) result.chosen[best_op[v]] = true;
      }
      continue;
    }
    // Branch and bound over the component's operations.
    std::vector<std::uint32_t> local_ops;
    for (auto op : comp_ops) {
      if (!dropped[op]) local_ops.push_back(op);
    }
    auto local = [&](std::uint32_t op) {
      return static_cast<std::uint32_t>(std::lower_bound(local_ops.begin(), local_ops.end(), op) - local_ops.begin());
    };
    std::vector<uint128> weights;
    for (auto op : local_ops) weights.push_back(problem.weights[op]);
    std::vector<std::vector<std::uint32_t>> sets;
    for (auto c : component_constraints[comp]) {
      auto [a, b] = problem.constraints[c];
      std::vector<std::uint32_t> set;
      for (auto v : {vertex(a), vertex(b)}) {
        for (auto op : vertex_ops[v]) set.push_back(local(op));
      }
      std::sort(set.begin(), set.end());
      set.erase(std::unique(set.begin(), set.end()), set.end());
      if (set.empty()) {
        result.feasible = false;
        continue;
      }
      sets.push_back(std::move(set));
    }
    std::sort(sets.begin(), sets.end());
    sets.erase(std::unique(sets.begin(), sets.end()), sets.end());
    // Each search node costs O(total constraint size): scale the budget so that a
    // large component still finishes in bounded time (as the vertex cover does).
    std::size_t work = 0;
    for (const auto& set : sets) work += set.size();
    std::size_t budget = std::max<std::size_t>(64, std::min(node_budget, 20'000'000 / (work + 1)));
    hitting_set_solver solver(std::move(weights), std::move(sets), budget);
    auto chosen = solver.solve();
    result.optimal = result.optimal && solver.optimal();
    for (std::size_t k = 0; k < local_ops.size(); ++k) {
      if (chosen[k]) result.chosen[local_ops[k]] = true;
    }
  }
  return result;
}

}  // namespace cidrcheck::detail
