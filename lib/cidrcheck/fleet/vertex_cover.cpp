#include "vertex_cover.hpp"

#include <algorithm>
#include <numeric>

namespace cidrcheck::detail {

namespace {

// Branch and bound over one connected component (local vertex numbers).
class component_solver {
 public:
  component_solver(std::vector<uint128> weights, std::vector<std::vector<std::uint32_t>> adjacency,
                   std::size_t budget)
      : w_(std::move(weights)), adj_(std::move(adjacency)), budget_(budget) {}

  auto is_clique() const -> bool {
    for (const auto& n : adj_) {
      if (n.size() + 1 != adj_.size()) return false;
    }
    return true;
  }
  // A clique's cover is every vertex but one: keep the heaviest (the last on a tie).
  auto cover_of_clique() const -> std::vector<bool> {
    std::size_t keep = 0;
    for (std::size_t v = 1; v < w_.size(); ++v) {
      if (w_[v] >= w_[keep]) keep = v;
    }
    std::vector<bool> cover(w_.size(), true);
    cover[keep] = false;
    return cover;
  }
  // Branch and bound from a greedy cover (call when the component is not a clique).
  auto search_cover() -> std::vector<bool> {
    std::size_t k = w_.size();
    best_ = greedy_cover();
    best_cost_ = weight_of(best_, w_);
    std::vector<bool> alive(k, true), chosen(k, false);
    search(alive, chosen, 0);
    return best_;
  }
  auto optimal() const -> bool { return nodes_ <= budget_; }
  auto nodes() const -> std::size_t { return nodes_; }
  auto reduced() const -> std::size_t { return reduced_; }

 private:
  // An initial cover: the primal-dual (local ratio) 2-approximation, then every
  // vertex whose neighbours are all in the cover is dropped, heaviest first.
  auto greedy_cover() const -> std::vector<bool> {
    std::vector<uint128> residual = w_;
    std::vector<bool> cover(w_.size(), false);
    for (std::uint32_t u = 0; u < adj_.size(); ++u) {
      for (auto v : adj_[u]) {
        if (v < u || cover[u] || cover[v]) continue;
        uint128 d = std::min(residual[u], residual[v]);
        residual[u] -= d;
        residual[v] -= d;
        if (residual[u] == 0) cover[u] = true;
        if (residual[v] == 0) cover[v] = true;
      }
    }
    std::vector<std::uint32_t> order(w_.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return w_[a] > w_[b]; });
    for (auto v : order) {
      if (!cover[v]) continue;
      bool needed = std::any_of(adj_[v].begin(), adj_[v].end(), [&](auto u) { return !cover[u]; });
      if (!needed) cover[v] = false;
    }
    return cover;
  }

  // A lower bound on covering the alive edges: an edge packing (the LP dual).
  auto packing_bound(const std::vector<bool>& alive) const -> uint128 {
    std::vector<uint128> residual = w_;
    uint128 bound = 0;
    for (std::uint32_t u = 0; u < adj_.size(); ++u) {
      if (!alive[u]) continue;
      for (auto v : adj_[u]) {
        if (v < u || !alive[v]) continue;
        uint128 d = std::min(residual[u], residual[v]);
        residual[u] -= d;
        residual[v] -= d;
        bound = add_saturating(bound, d);
      }
    }
    return bound;
  }

  void take(std::vector<bool>& alive, std::vector<bool>& chosen, uint128& cost, std::uint32_t v) const {
    alive[v] = false;
    chosen[v] = true;
    cost = add_saturating(cost, w_[v]);
  }

  // Exact reductions: a vertex with no alive neighbour leaves; a vertex at least
  // as heavy as its alive neighbours together leaves and they join the cover.
  void reduce(std::vector<bool>& alive, std::vector<bool>& chosen, uint128& cost) {
    for (bool changed = true; changed;) {
      changed = false;
      for (std::uint32_t v = 0; v < adj_.size(); ++v) {
        if (!alive[v]) continue;
        uint128 around = 0;
        bool any = false;
        for (auto u : adj_[v]) {
          if (!alive[u]) continue;
          any = true;
          around = add_saturating(around, w_[u]);
        }
        if (!any) {
          alive[v] = false;
          changed = true;
          ++reduced_;
        } else if (w_[v] >= around) {
          for (auto u : adj_[v]) {
            if (alive[u]) take(alive, chosen, cost, u);
          }
          alive[v] = false;
          changed = true;
          ++reduced_;
        }
      }
    }
  }

  void search(std::vector<bool> alive, std::vector<bool> chosen, uint128 cost) {
    if (++nodes_ > budget_) return;
    reduce(alive, chosen, cost);
    if (add_saturating(cost, packing_bound(alive)) >= best_cost_) return;
    // Branch on the alive vertex with the most alive neighbours.
    std::uint32_t pick = 0;
    std::size_t best_degree = 0;
    for (std::uint32_t v = 0; v < adj_.size(); ++v) {
      if (!alive[v]) continue;
      auto degree = static_cast<std::size_t>(std::count_if(adj_[v].begin(), adj_[v].end(), [&](auto u) { return alive[u]; }));
      if (degree > best_degree) {
        best_degree = degree;
        pick = v;
      }
    }
    if (best_degree == 0) {  // everything covered
      best_ = chosen;
      best_cost_ = cost;
      return;
    }
    auto with_v = [&] {
      auto a = alive;
      auto c = chosen;
      auto x = cost;
      take(a, c, x, pick);
      search(std::move(a), std::move(c), x);
    };
    auto with_neighbours = [&] {
      auto a = alive;
      auto c = chosen;
      auto x = cost;
      for (auto u : adj_[pick]) {
        if (a[u]) take(a, c, x, u);
      }
      a[pick] = false;
      search(std::move(a), std::move(c), x);
    };
    with_v();
    with_neighbours();
  }

  std::vector<uint128> w_;
  std::vector<std::vector<std::uint32_t>> adj_;
  std::size_t budget_;
  std::size_t nodes_ = 0;
  std::size_t reduced_ = 0;
  std::vector<bool> best_;
  uint128 best_cost_ = uint128_max;
};

}  // namespace

auto minimum_weight_vertex_cover(const std::vector<uint128>& weights,
                                 const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges,
                                 std::size_t node_budget) -> cover_result {
  const std::size_t n = weights.size();
  cover_result result;
  result.in_cover.assign(n, false);
  std::vector<std::vector<std::uint32_t>> adjacency(n);
  for (auto [u, v] : edges) {
    if (u == v) continue;
    if (weights[u] >= pinned_weight && weights[v] >= pinned_weight) {
      result.feasible = false;  // nothing can resolve it; the rest is still covered
      continue;
    }
    adjacency[u].push_back(v);
    adjacency[v].push_back(u);
  }
  for (auto& a : adjacency) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  // Solve each connected component on its own.
  std::vector<std::uint32_t> component_of(n, ~0u);
  for (std::uint32_t start = 0; start < n; ++start) {
    if (component_of[start] != ~0u || adjacency[start].empty()) continue;
    std::vector<std::uint32_t> members{start};
    component_of[start] = start;
    for (std::size_t k = 0; k < members.size(); ++k) {
      for (auto u : adjacency[members[k]]) {
        if (component_of[u] == ~0u) {
          component_of[u] = start;
          members.push_back(u);
        }
      }
    }
    std::sort(members.begin(), members.end());
    std::vector<uint128> local_weights;
    std::vector<std::vector<std::uint32_t>> local_adjacency;
    for (auto v : members) {
      local_weights.push_back(weights[v]);
      std::vector<std::uint32_t> local;
      for (auto u : adjacency[v]) {
        local.push_back(static_cast<std::uint32_t>(std::lower_bound(members.begin(), members.end(), u) - members.begin()));
      }
      local_adjacency.push_back(std::move(local));
    }
    // Each search node costs O(edges) for its bound: scale the budget so that a
    // large component still finishes in bounded time.
    std::size_t edge_count = 0;
    for (const auto& a : local_adjacency) edge_count += a.size();
    std::size_t budget = std::max<std::size_t>(64, std::min(node_budget, 50'000'000 / (edge_count + 1)));
    component_solver solver(std::move(local_weights), std::move(local_adjacency), budget);
    std::vector<bool> cover;
    if (solver.is_clique()) {
      cover = solver.cover_of_clique();
      ++result.stats.cliques;
    } else {
      cover = solver.search_cover();
      result.optimal = result.optimal && solver.optimal();
      result.stats.reduced += solver.reduced();
      result.stats.search_nodes += solver.nodes();
    }
    for (std::size_t k = 0; k < members.size(); ++k) result.in_cover[members[k]] = cover[k];
  }
  return result;
}

}  // namespace cidrcheck::detail
