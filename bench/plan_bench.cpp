// The operation chooser of `plan` on conflict graphs of 1k, 10k and 100k
// constraints (bench/README.md). Items are ranges; each has an in-place
// operation, and every third pair of items of one cluster also a replacement
// covering both, so both solver paths (vertex cover, branch and bound) run.

#include "../lib/cidrcheck/fleet/operation_cover.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

namespace cidrcheck::bench {
namespace {

auto random_problem(std::size_t constraints, bool replacements, std::uint64_t seed = 7) -> detail::operation_problem {
  std::mt19937_64 rng(seed);
  const std::size_t items = constraints / 4 + 2;  // about 8 constraints per item, as in fleets with shared ranges
  std::vector<std::vector<std::uint32_t>> covers;
  detail::operation_problem p;
  for (std::uint32_t k = 0; k < items; ++k) {
    covers.push_back({k});
    p.weights.push_back(static_cast<cidrcheck::uint128>(2 + rng() % 5) << 64 | k);
  }
  if (replacements) {
    for (std::uint32_t k = 0; k + 1 < items; k += 6) {
      covers.push_back({k, k + 1});
      p.weights.push_back(static_cast<cidrcheck::uint128>(20) << 64 | k);
    }
  }
  p.item_start.assign(items + 1, 0);
  for (const auto& c : covers) {
    for (auto item : c) ++p.item_start[item + 1];
  }
  for (std::size_t k = 1; k < p.item_start.size(); ++k) p.item_start[k] += p.item_start[k - 1];
  p.item_ops.resize(p.item_start.back());
  auto fill = p.item_start;
  for (std::uint32_t op = 0; op < covers.size(); ++op) {
    for (auto item : covers[op]) p.item_ops[fill[item]++] = op;
  }
  // Conflicts mostly within groups of 50 items (shared ranges), some across.
  for (std::size_t c = 0; c < constraints; ++c) {
    auto a = static_cast<std::uint32_t>(rng() % items);
    auto group = a / 50 * 50;
    auto b = rng() % 10 == 0 ? static_cast<std::uint32_t>(rng() % items)
                             : static_cast<std::uint32_t>(std::min<std::size_t>(items - 1, group + rng() % 50));
    p.constraints.emplace_back(a, b);
  }
  return p;
}

void choose(benchmark::State& state, bool replacements) {
  auto problem = random_problem(static_cast<std::size_t>(state.range(0)), replacements);
  bool optimal = true;
  for (auto _ : state) {
    auto result = detail::choose_operations(problem);
    optimal = result.optimal;
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * problem.constraints.size()));
  state.counters["optimal"] = optimal ? 1 : 0;
  state.counters["operations"] = static_cast<double>(problem.weights.size());
}

void choose_in_place(benchmark::State& state) { choose(state, false); }
void choose_with_replacements(benchmark::State& state) { choose(state, true); }

BENCHMARK(choose_in_place)->Name("BM_ChooseOperations_InPlace")->Arg(1'000)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(choose_with_replacements)
    ->Name("BM_ChooseOperations_Replacements")
    ->Arg(1'000)
    ->Arg(10'000)
    ->Arg(100'000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cidrcheck::bench
