// Benches of the core and the list reader, named BM_<Operation>_<Input>.
// Inputs come from inputs.hpp; each fleet is generated once, outside the timing.

#include "inputs.hpp"

#include <cidrcheck/address_set.hpp>
#include <cidrcheck/algorithms.hpp>
#include <cidrcheck/detail/glob.hpp>
#include <cidrcheck/io/prefix_list.hpp>
#include <cidrcheck/prefix_allocator.hpp>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace {

using cidrcheck::address_set;
using cidrcheck::ip_version;
using cidrcheck::prefix;

struct input {
  const char* name;
  ip_version version;
  std::size_t size;
};

constexpr input fleets[] = {
    {"Fleet10k", ip_version::v4, 10'000},
    {"Fleet100k", ip_version::v4, 100'000},
    {"Fleet1M", ip_version::v4, 1'000'000},
    {"Fleet100kV6", ip_version::v6, 100'000},
};

auto fleet_of(const input& in, std::uint64_t seed = 42) -> const std::vector<prefix>& {
  return cidrcheck::bench::cached_fleet(in.version, in.size, seed);
}

auto set_of(const std::vector<prefix>& prefixes) -> address_set {
  cidrcheck::address_set_builder b;
  for (const auto& p : prefixes) b.add(p);
  return b.build();
}

void set_items(benchmark::State& state, std::size_t per_iteration) {
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(per_iteration));
}

void parse_address(benchmark::State& state, ip_version v) {
  const auto texts = cidrcheck::bench::to_texts(cidrcheck::bench::cached_fleet(v, 10'000), true);
  for (auto _ : state) {
    for (const auto& t : texts) {
      auto a = cidrcheck::address::try_parse(t);
      benchmark::DoNotOptimize(a);
    }
  }
  set_items(state, texts.size());
}

void parse_prefix(benchmark::State& state, ip_version v) {
  const auto texts = cidrcheck::bench::to_texts(cidrcheck::bench::cached_fleet(v, 10'000), false);
  for (auto _ : state) {
    for (const auto& t : texts) {
      auto p = prefix::try_parse(t);
      benchmark::DoNotOptimize(p);
    }
  }
  set_items(state, texts.size());
}

void parse_prefix_list(benchmark::State& state, const input& in) {
  const std::string text = cidrcheck::bench::to_list_text(fleet_of(in));
  for (auto _ : state) {
    cidrcheck::prefix_list list;
    cidrcheck::parse_prefix_list(text, "bench", list);
    benchmark::DoNotOptimize(list.keys().v4.data());
  }
  set_items(state, in.size);
}

void build_set(benchmark::State& state, const input& in) {
  const auto& prefixes = fleet_of(in);
  for (auto _ : state) {
    auto s = set_of(prefixes);
    benchmark::DoNotOptimize(s);
  }
  set_items(state, in.size);
}

void merge(benchmark::State& state, const input& in) {
  const auto s = set_of(fleet_of(in));
  for (auto _ : state) {
    auto cover = s.prefixes();
    benchmark::DoNotOptimize(cover.data());
  }
  set_items(state, s.range_count());
}

// What `cidrcheck set merge` runs: the cover straight from the list, no set built.
void collapse(benchmark::State& state, const input& in) {
  const auto& prefixes = fleet_of(in);
  for (auto _ : state) {
    auto cover = cidrcheck::collapse(prefixes);
    benchmark::DoNotOptimize(cover.data());
  }
  set_items(state, in.size);
}

void count_overlapping_pairs(benchmark::State& state, const input& in) {
  const auto& prefixes = fleet_of(in);
  for (auto _ : state) {
    auto pairs = cidrcheck::count_overlapping_pairs(prefixes);
    benchmark::DoNotOptimize(pairs);
  }
  set_items(state, in.size);
}

// The algebra benches combine two fleets of one input size with different seeds.
template <class Op>
void algebra(benchmark::State& state, const input& in, Op op) {
  const auto a = set_of(fleet_of(in)), b = set_of(fleet_of(in, 7));
  for (auto _ : state) {
    auto c = op(a, b);
    benchmark::DoNotOptimize(c);
  }
  set_items(state, a.range_count() + b.range_count());
}

void set_union(benchmark::State& state, const input& in) {
  algebra(state, in, [](const address_set& a, const address_set& b) { return a | b; });
}
void set_intersection(benchmark::State& state, const input& in) {
  algebra(state, in, [](const address_set& a, const address_set& b) { return a & b; });
}
void set_difference(benchmark::State& state, const input& in) {
  algebra(state, in, [](const address_set& a, const address_set& b) { return a - b; });
}

// The free space of the allocator benches: the whole address space minus the fleet.
auto free_space_of(const input& in) -> address_set {
  auto pool = in.version == ip_version::v4 ? prefix::parse("0.0.0.0/0") : prefix::parse("::/0");
  return address_set{pool} - set_of(fleet_of(in));
}

void allocator_build(benchmark::State& state, const input& in) {
  const auto free = free_space_of(in);
  for (auto _ : state) {
    cidrcheck::prefix_allocator allocator(free);
    benchmark::DoNotOptimize(allocator);
  }
  set_items(state, free.range_count());
}

// Builds an allocator and takes 10,000 blocks (/24 for IPv4, /64 for IPv6), as
// `cidrcheck set alloc --count 10000` does after reading its input.
void alloc_take(benchmark::State& state, const input& in) {
  constexpr std::size_t blocks = 10'000;
  const int length = in.version == ip_version::v4 ? 24 : 64;
  const auto free = free_space_of(in);
  for (auto _ : state) {
    cidrcheck::prefix_allocator allocator(free);
    for (std::size_t k = 0; k < blocks; ++k) {
      auto p = allocator.take(in.version, length);
      benchmark::DoNotOptimize(p);
    }
  }
  set_items(state, blocks);
}

using fleet_bench = void (*)(benchmark::State&, const input&);

// Registers BM_<operation>_<input> for every fleet input and the parse benches.
auto register_benches(std::initializer_list<std::pair<const char*, fleet_bench>> operations) -> bool {
  for (auto v : {ip_version::v4, ip_version::v6}) {
    std::string family = v == ip_version::v4 ? "V4Text" : "V6Text";
    benchmark::RegisterBenchmark(("BM_ParseAddress_" + family).c_str(), parse_address, v);
    benchmark::RegisterBenchmark(("BM_ParsePrefix_" + family).c_str(), parse_prefix, v);
  }
  for (const auto& [operation, bench] : operations) {
    for (const auto& in : fleets) {
      auto name = std::string("BM_") + operation + "_" + in.name;
      benchmark::RegisterBenchmark(name.c_str(), bench, in)->Unit(benchmark::kMillisecond);
    }
  }
  return true;
}

[[maybe_unused]] const bool registered = register_benches({
    {"ParsePrefixList", parse_prefix_list},
    {"BuildSet", build_set},
    {"Merge", merge},
    {"Collapse", collapse},
    {"CountOverlappingPairs", count_overlapping_pairs},
    {"Union", set_union},
    {"Intersection", set_intersection},
    {"Difference", set_difference},
    {"AllocatorBuild", allocator_build},
    {"AllocTake", alloc_take},
});

// take_near at its worst for a search that steps over taken blocks: the free
// space is every second /24 of 10.0.0.0/8 (N blocks of one length, in the
// allocator's sorted array), and N/2 /24s are taken next to the used /24 in
// the middle, each just past the ones taken before it. neighbours() skips
// those along links each search shortens: 1.2, 3.8 and 9.8 ms at N = 10,000,
// 30,000 and 60,000, where stepping over them one by one (d08b51b) took 34,
// 246 and 1,022 ms, quadratic (bench/README.md).
void alloc_take_near_striped(benchmark::State& state) {
  auto n = static_cast<std::uint32_t>(state.range(0));
  cidrcheck::address_set_builder b;
  for (std::uint32_t k = 0; k < n; ++k) {
    b.add(prefix::containing(cidrcheck::address::v4(0x0A000000u + (2 * k + 1) * 256), 24));
  }
  const auto free = b.build();
  // A used /24 in the middle: the takes go out from it on both sides.
  const std::vector<prefix> near = {prefix::containing(cidrcheck::address::v4(0x0A000000u + n / 2 * 2 * 256), 24)};
  for (auto _ : state) {
    cidrcheck::prefix_allocator allocator(free);
    for (std::uint32_t k = 0; k < n / 2; ++k) benchmark::DoNotOptimize(allocator.take_near(ip_version::v4, 24, near));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * (n / 2));
}
BENCHMARK(alloc_take_near_striped)->Name("BM_AllocTakeNear_Striped")->Arg(10'000)->Arg(30'000)->Arg(60'000);

// A pin pattern against a name, at its worst for a backtracking matcher (issue
// 28, item 5): the name N 'a's, the pattern a star, N/2 'a's, "b" and a star,
// which fails only after trying the piece at every start. Linear: the time per
// character stays flat from 10,000 to 1,000,000.
void glob_match_adversarial(benchmark::State& state) {
  auto n = static_cast<std::size_t>(state.range(0));
  std::string text(n, 'a');
  std::string pattern = "*" + std::string(n / 2, 'a') + "b*";
  for (auto _ : state) benchmark::DoNotOptimize(cidrcheck::detail::glob_match(pattern, text));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(glob_match_adversarial)->Name("BM_GlobMatch_Adversarial")->Arg(10'000)->Arg(100'000)->Arg(1'000'000);

}  // namespace
