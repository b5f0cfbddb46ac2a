// The core's shared objects read from several threads at once: an address_set
// (and its copies), an address_map, a prefix_allocator's const queries. Every
// thread must get the answers one thread gets.
#include <cidrcheck/address_map.hpp>
#include <cidrcheck/address_set.hpp>
#include <cidrcheck/prefix_allocator.hpp>

#include "../unit/random.hpp"
#include "concurrently.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace cidrcheck {
namespace {

using test::answers;
using test::joined;

constexpr auto text = [](const auto& x) { return x.to_string(); };

// Random blocks in 10.0.0.0/8 and 2001:db8::/32, dense enough that many overlap
// and touch, so the sets hold merged ranges and the maps split pieces.
struct random_blocks {
  test::random_source rnd;

  auto v4(int shortest, int longest) -> prefix {
    auto length = shortest + static_cast<int>(rnd() % static_cast<unsigned>(longest - shortest + 1));
    return prefix::containing(address::v4(0x0a000000u | (rnd() & 0xffffffu)), length);
  }
  auto v6(int shortest, int longest) -> prefix {
    auto length = shortest + static_cast<int>(rnd() % static_cast<unsigned>(longest - shortest + 1));
    std::uint64_t hi = std::uint64_t{0x20010db8} << 32 | (rnd() & 0xffffu) << 16;
    return prefix::containing(address::v6(hi, std::uint64_t{rnd()} << 32 | rnd()), length);
  }
  auto probe() -> address { return rnd() % 5 == 0 ? v6(128, 128).network() : v4(32, 32).network(); }
  auto window() -> address_range { return address_range(rnd() % 5 == 0 ? v6(56, 72) : v4(18, 26)); }
};

struct set_sample {
  address_set set, other;
  std::vector<address> probes;
  std::vector<address_range> windows;
};

auto make_set_sample() -> set_sample {
  random_blocks blocks{test::random_source(20240601)};
  address_set_builder a, b;
  for (int k = 0; k < 3000; ++k) a.add(blocks.v4(14, 28));
  for (int k = 0; k < 500; ++k) a.add(blocks.v6(44, 64));
  for (int k = 0; k < 2000; ++k) b.add(blocks.v4(16, 28));
  set_sample s{a.build(), b.build(), {}, {}};
  for (int k = 0; k < 5000; ++k) s.probes.push_back(blocks.probe());
  for (int k = 0; k < 1000; ++k) s.windows.push_back(blocks.window());
  return s;
}

auto bits(const auto& items, auto question) -> std::string {
  std::string out;
  for (const auto& item : items) out += question(item) ? '1' : '0';
  return out;
}

// Every const question an address_set answers, plus copies (which share its
// storage) and a builder fed from it.
auto set_answers(const set_sample& s) -> answers {
  const address_set& set = s.set;
  answers out;
  out.push_back("contains address: " + bits(s.probes, [&](address a) { return set.contains(a); }));
  out.push_back("contains range: " + bits(s.windows, [&](const address_range& r) { return set.contains(r); }));
  out.push_back("overlaps range: " + bits(s.windows, [&](const address_range& r) { return set.overlaps(r); }));
  out.push_back("overlaps set: " + std::to_string(set.overlaps(s.other)));
  out.push_back("size: " + to_decimal(set.size()) + " in " + std::to_string(set.range_count()) + " ranges");
  out.push_back("ranges: " + joined(set.ranges(), text));
  out.push_back("prefixes: " + joined(set.prefixes(), text));
  out.push_back("union: " + joined((set | s.other).ranges(), text));
  out.push_back("intersection: " + joined((set & s.other).ranges(), text));
  out.push_back("difference: " + joined((set - s.other).ranges(), text));
  out.push_back("symmetric difference: " + joined((set ^ s.other).ranges(), text));
  out.push_back("only v6: " + joined(set.only(ip_version::v6).ranges(), text));
  out.push_back("hash: " + std::to_string(std::hash<address_set>{}(set)));
  int equal_copies = 0;
  for (int k = 0; k < 200; ++k) {
    address_set copy = set;  // copies share the storage: their count changes in every thread
    equal_copies += copy == set ? 1 : 0;
  }
  out.push_back("equal copies: " + std::to_string(equal_copies));
  address_set_builder b;
  b.add(set);
  b.remove(s.other);
  out.push_back("built from it: " + std::to_string(b.build() == set - s.other));
  return out;
}

TEST(SharedAddressSet, EveryReaderGetsTheSingleThreadedAnswers) {
  const auto sample = make_set_sample();
  const auto reference = set_answers(sample);
  test::expect_same_answers(test::concurrently(test::reader_threads, [&](std::size_t) { return set_answers(sample); }),
                            reference);
}

using owner_map = address_map<std::set<std::uint32_t>>;

auto map_answers(const owner_map& m, const set_sample& s) -> answers {
  auto owners = [](const std::set<std::uint32_t>& v) { return joined(v, [](auto k) { return std::to_string(k); }); };
  answers out;
  std::string found;
  for (auto a : s.probes) {
    const auto* v = m.find(a);
    found += v ? "{" + owners(*v) + "}" : "-";
  }
  out.push_back("find: " + found);
  std::string windows;
  for (const auto& r : s.windows) {
    m.for_each_in(r, [&](const address_range& piece, const auto& v) { windows += piece.to_string() + owners(v) + ";"; });
    windows += '|';
  }
  out.push_back("for_each_in: " + windows);
  out.push_back("pieces: " + std::to_string(m.piece_count()) + ": " +
                joined(m.pieces(), [&](const auto& p) { return p.first.to_string() + "=" + owners(p.second); }));
  owner_map copy = m;
  out.push_back("equal copy: " + std::to_string(copy == m));
  return out;
}

TEST(SharedAddressMap, EveryReaderGetsTheSingleThreadedAnswers) {
  const auto sample = make_set_sample();
  random_blocks blocks{test::random_source(7)};
  owner_map built;
  for (std::uint32_t k = 0; k < 3000; ++k) built.add(blocks.v4(14, 28), {k % 64});
  for (std::uint32_t k = 0; k < 500; ++k) built.add(blocks.v6(44, 64), {k % 64});
  const owner_map& m = built;
  const auto reference = map_answers(m, sample);
  test::expect_same_answers(
      test::concurrently(test::reader_threads, [&](std::size_t) { return map_answers(m, sample); }), reference);
}

// The const queries of a shared allocator, and takes from each reader's own copy.
auto allocator_answers(const prefix_allocator& a) -> answers {
  answers out;
  std::string v4, v6;
  for (int length = 0; length <= 32; ++length) v4 += to_decimal(a.count_fitting(ip_version::v4, length)) + " ";
  for (int length = 0; length <= 128; ++length) v6 += to_decimal(a.count_fitting(ip_version::v6, length)) + " ";
  out.push_back("count_fitting v4: " + v4);
  out.push_back("count_fitting v6: " + v6);
  out.push_back("largest: " + a.largest(ip_version::v4)->to_string() + " " + a.largest(ip_version::v6)->to_string());
  out.push_back("free space: " + joined(a.free_space().ranges(), text));
  prefix_allocator mine = a;
  std::string taken;
  for (int k = 0; k < 100; ++k) {
    auto p = mine.take(k % 2 == 0 ? ip_version::v4 : ip_version::v6, k % 2 == 0 ? 16 + k % 12 : 48 + k % 16);
    taken += p ? p->to_string() + " " : "none ";
  }
  out.push_back("takes from a copy: " + taken);
  return out;
}

TEST(SharedPrefixAllocator, ConstQueriesGetTheSingleThreadedAnswers) {
  random_blocks blocks{test::random_source(42)};
  address_set_builder used;
  for (int k = 0; k < 500; ++k) used.add(blocks.v4(14, 24));
  for (int k = 0; k < 200; ++k) used.add(blocks.v6(36, 56));
  address_set pools{prefix::parse("10.0.0.0/8"), prefix::parse("2001:db8::/32")};
  prefix_allocator built(pools - used.build());
  // Takes before sharing leave carved remainders in the buckets' second store.
  for (int k = 0; k < 50; ++k) {
    built.take(ip_version::v4, 20 + k % 8);
    built.take(ip_version::v6, 48 + k % 16);
  }
  const prefix_allocator& shared = built;
  const auto reference = allocator_answers(shared);
  test::expect_same_answers(
      test::concurrently(test::reader_threads, [&](std::size_t) { return allocator_answers(shared); }), reference);
}

}  // namespace
}  // namespace cidrcheck
