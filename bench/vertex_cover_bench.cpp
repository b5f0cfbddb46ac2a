// The exact vertex-cover solver of `plan` (lib/cidrcheck/fleet/vertex_cover.hpp)
// on conflict graphs of 1k, 10k and 100k edges, one shape per case
// (bench/README.md): cliques (clusters sharing one range), stars (a network
// against many clusters) and groups (random conflicts within groups of 50
// ranges, some across), which reach the reductions, the search and the budget.

#include "../lib/cidrcheck/fleet/vertex_cover.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace cidrcheck::bench {
namespace {

using edge_list = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

struct graph {
  std::vector<uint128> weights;
  edge_list edges;
};

enum class shape { cliques, stars, groups };

// Weights as plan packs them: a cost of 2..6 in the high half, the range's index as tie-break.
auto add_vertex(graph& g, std::mt19937_64& rng) -> std::uint32_t {
  auto v = static_cast<std::uint32_t>(g.weights.size());
  g.weights.push_back(static_cast<uint128>(2 + rng() % 5) << 64 | v);
  return v;
}

auto conflict_graph(shape s, std::size_t edges, std::uint64_t seed = 7) -> graph {
  std::mt19937_64 rng(seed);
  graph g;
  while (g.edges.size() < edges) {
    if (s == shape::cliques) {  // 3 to 12 clusters on one range
      std::vector<std::uint32_t> members(3 + rng() % 10);
      for (auto& v : members) v = add_vertex(g, rng);
      for (std::size_t a = 0; a < members.size(); ++a) {
        for (std::size_t b = a + 1; b < members.size(); ++b) g.edges.emplace_back(members[a], members[b]);
      }
    } else if (s == shape::stars) {  // one network against 5 to 40 clusters
      auto hub = add_vertex(g, rng);
      for (auto k = 5 + rng() % 36; k > 0; --k) g.edges.emplace_back(hub, add_vertex(g, rng));
    } else {  // 50 ranges, 8 conflicts per range, a tenth of them into the previous group
      std::uint32_t first = static_cast<std::uint32_t>(g.weights.size());
      for (int k = 0; k < 50; ++k) add_vertex(g, rng);
      for (int k = 0; k < 400; ++k) {
        auto a = first + static_cast<std::uint32_t>(rng() % 50);
        auto b = first + static_cast<std::uint32_t>(rng() % 50);
        if (first >= 50 && rng() % 10 == 0) b = first - 50 + static_cast<std::uint32_t>(rng() % 50);
        g.edges.emplace_back(a, b);
      }
    }
  }
  return g;
}

void solve(benchmark::State& state, shape s) {
  auto g = conflict_graph(s, static_cast<std::size_t>(state.range(0)));
  detail::cover_result last;
  for (auto _ : state) {
    last = detail::minimum_weight_vertex_cover(g.weights, g.edges);
    benchmark::DoNotOptimize(last);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g.edges.size()));
  state.counters["vertices"] = static_cast<double>(g.weights.size());
  state.counters["optimal"] = last.optimal ? 1 : 0;
  state.counters["cliques"] = static_cast<double>(last.stats.cliques);
  state.counters["reduced"] = static_cast<double>(last.stats.reduced);
  state.counters["nodes"] = static_cast<double>(last.stats.search_nodes);
}

void cliques(benchmark::State& state) { solve(state, shape::cliques); }
void stars(benchmark::State& state) { solve(state, shape::stars); }
void groups(benchmark::State& state) { solve(state, shape::groups); }

BENCHMARK(cliques)->Name("BM_VertexCover_Cliques")->Arg(1'000)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(stars)->Name("BM_VertexCover_Stars")->Arg(1'000)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(groups)->Name("BM_VertexCover_Groups")->Arg(1'000)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cidrcheck::bench
