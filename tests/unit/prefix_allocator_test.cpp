#include <cidrcheck/address_set.hpp>
#include <cidrcheck/iostream.hpp>
#include <cidrcheck/prefix_allocator.hpp>

#include "random.hpp"

#include <gtest/gtest.h>

#include <bitset>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {
namespace {

auto P(std::string_view s) { return prefix::parse(s); }

TEST(PrefixAllocator, TakesTheSmallestBlockThatFitsLowestFirst) {
  // Free: 10.0.0.0/22 minus 10.0.1.0/25 = 10.0.0.0/24, 10.0.1.128/25, 10.0.2.0/23.
  address_set free = address_set{P("10.0.0.0/22")} - address_set{P("10.0.1.0/25")};
  prefix_allocator a(free);
  EXPECT_EQ(a.take(ip_version::v4, 26), P("10.0.1.128/26"));  // the /25 is the best fit
  EXPECT_EQ(a.take(ip_version::v4, 26), P("10.0.1.192/26"));  // its buddy is now the best fit
  EXPECT_EQ(a.take(ip_version::v4, 24), P("10.0.0.0/24"));
  EXPECT_EQ(a.take(ip_version::v4, 24), P("10.0.2.0/24"));    // carved from the start of the /23
  EXPECT_EQ(a.take(ip_version::v4, 24), P("10.0.3.0/24"));
  EXPECT_EQ(a.take(ip_version::v4, 32), std::nullopt);
  EXPECT_TRUE(a.free_space().empty());
}

TEST(PrefixAllocator, CountsWhatStillFitsAndReportsTheLargestBlock) {
  prefix_allocator a(address_set{P("10.0.0.0/16"), P("192.168.0.0/24")});
  EXPECT_EQ(a.count_fitting(ip_version::v4, 24), 257u);
  EXPECT_EQ(a.largest(ip_version::v4), P("10.0.0.0/16"));
  a.reserve(P("10.0.128.0/17"));
  EXPECT_EQ(a.count_fitting(ip_version::v4, 24), 129u);
  EXPECT_EQ(a.largest(ip_version::v4), P("10.0.0.0/17"));
  EXPECT_EQ(a.count_fitting(ip_version::v6, 64), 0u);
  EXPECT_EQ(a.largest(ip_version::v6), std::nullopt);
}

TEST(PrefixAllocator, WorksAtTheEdgesOfBothSpaces) {
  prefix_allocator a(address_set{P("0.0.0.0/0"), P("::/0")});
  EXPECT_EQ(a.take(ip_version::v4, 0), P("0.0.0.0/0"));
  EXPECT_EQ(a.take(ip_version::v4, 32), std::nullopt);
  EXPECT_EQ(a.count_fitting(ip_version::v6, 128), detail::uint128_max);  // 2^128 saturates
  EXPECT_EQ(a.take(ip_version::v6, 128), P("::/128"));
  EXPECT_EQ(a.take(ip_version::v6, 1), P("8000::/1"));
  EXPECT_EQ(a.count_fitting(ip_version::v6, 1), 0u);
  a.reserve(P("ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe/127"));
  EXPECT_EQ(a.free_space(), address_set{P("::/1")} - address_set{P("::/128")});
}

// A length no block of the version can have is a mistake, not an exhausted pool:
// it throws, where nullopt or 0 would read as "nothing free".
TEST(PrefixAllocator, ALengthTheVersionCannotHaveThrows) {
  prefix_allocator a(address_set{P("0.0.0.0/0"), P("::/0")});
  EXPECT_THROW(a.take(ip_version::v6, 129), std::invalid_argument);
  EXPECT_THROW(a.take(ip_version::v4, -1), cidrcheck::error);
  EXPECT_THROW(a.take(ip_version::none, 8), std::invalid_argument);
  EXPECT_THROW(a.count_fitting(ip_version::v4, 33), std::invalid_argument);
  try {
    a.take(ip_version::v4, 33);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "take: /33 is no IPv4 prefix length (0 to 32)");
  }
  EXPECT_EQ(a.take(ip_version::v4, 32), P("0.0.0.0/32"));  // the free space is untouched by the refusals
}

// The model: a bitset over a /24; the canonical blocks are the aligned blocks
// fully free whose parent is not; best fit as netipx's RemoveFreePrefix chooses.
struct model {
  std::bitset<256> free;

  auto take(int length) -> std::optional<unsigned> {
    int host_wanted = 32 - length;
    int best_host = -1;
    unsigned best_start = 0;
    unsigned k = 0;
    while (k < 256) {
      if (!free[k]) {
        ++k;
        continue;
      }
      int host = 8;
      for (; host > 0; --host) {
        unsigned size = 1u << host;
        if (k % size != 0) continue;
        bool full = true;
        for (unsigned j = k; j < k + size; ++j) full = full && free[j];
        if (full) break;
      }
      if (host >= host_wanted && (best_host < 0 || host < best_host)) {
        best_host = host;
        best_start = k;
      }
      k += 1u << host;
    }
    if (best_host < 0) return std::nullopt;
    for (unsigned j = best_start; j < best_start + (1u << host_wanted); ++j) free[j] = false;
    return best_start;
  }
};

TEST(PrefixAllocatorOracle, MatchesBestFitOnABitsetModel) {
  test::random_source rng(7);
  const std::uint32_t base = 0x0a000000;
  for (int round = 0; round < 300; ++round) {
    model m;
    address_set_builder b;
    for (int op = 0; op < 6; ++op) {
      unsigned first = rng() % 256, last = first + rng() % (256 - first);
      for (unsigned j = first; j <= last; ++j) m.free[j] = true;
      b.add(address_range::make(address::v4(base + first), address::v4(base + last)));
    }
    prefix_allocator a(b.build());
    for (int step = 0; step < 20; ++step) {
      if (rng() % 4 == 0) {
        unsigned first = rng() % 256, last = first + rng() % std::min(256 - first, 40u);
        for (unsigned j = first; j <= last; ++j) m.free[j] = false;
        a.reserve(address_range::make(address::v4(base + first), address::v4(base + last)));
      } else {
        int length = 24 + static_cast<int>(rng() % 9);
        auto want = m.take(length);
        auto got = a.take(ip_version::v4, length);
        ASSERT_EQ(got.has_value(), want.has_value()) << "round " << round << " step " << step;
        if (want) {
          ASSERT_EQ(*got, prefix::containing(address::v4(base + *want), length));
        }
      }
      address_set_builder left;
      for (unsigned j = 0; j < 256; ++j) {
        if (m.free[j]) left.add(address::v4(base + j));
      }
      ASSERT_EQ(a.free_space(), left.build()) << "round " << round << " step " << step;
      std::uint64_t fit24 = m.free.all() ? 1 : 0;
      ASSERT_EQ(a.count_fitting(ip_version::v4, 24), fit24);
      ASSERT_EQ(a.count_fitting(ip_version::v4, 32), m.free.count());
    }
  }
}

TEST(PrefixAllocator, TakeNearTakesTheBlockNextToItsTargetNotTheBestFit) {
  // Free: 10.0.0.0/16 but 10.0.128.0/24 (the owner's range) and 10.0.255.0/25.
  address_set free = address_set{P("10.0.0.0/16")} - address_set{P("10.0.128.0/24")} - address_set{P("10.0.255.0/25")};
  prefix_allocator best(free);
  EXPECT_EQ(best.take(ip_version::v4, 25), P("10.0.255.128/25"));  // best fit: the far /25
  prefix_allocator a(free);
  // Below the target lies 10.0.0.0/17 (its top /25 is one address away), above it 10.0.129.0/24
  // (its first /25 is one address away): equally near, so the smaller block.
  auto got = a.take_near(ip_version::v4, 25, {P("10.0.128.0/24")});
  ASSERT_TRUE(got);
  EXPECT_EQ(got->first, P("10.0.129.0/25"));
  EXPECT_EQ(got->second, 0u);
  // Next: the top /25 of the /17 below is one address away, the /25 left above 129 addresses.
  got = a.take_near(ip_version::v4, 25, {P("10.0.128.0/24")});
  EXPECT_EQ(got->first, P("10.0.127.128/25"));
  // A /24: 10.0.126.0/24 below and 10.0.130.0/24 above are both 257 addresses away; the one below
  // is a whole free block (a /24 left of the /17), the one above is carved from a /23: the smaller block.
  got = a.take_near(ip_version::v4, 24, {P("10.0.128.0/24")});
  EXPECT_EQ(got->first, P("10.0.126.0/24"));
  address_set taken{P("10.0.129.0/25"), P("10.0.127.128/25"), P("10.0.126.0/24")};
  EXPECT_EQ(a.free_space(), free - taken);
}

TEST(PrefixAllocator, TakeNearPicksTheNearestOfSeveralTargetsAndSaysWhich) {
  address_set free = address_set{P("10.0.0.0/16")} - address_set{P("10.0.16.0/20")} - address_set{P("10.0.200.0/24")};
  prefix_allocator a(free);
  // An IPv6 target is skipped (the index still counts it); 10.0.200.0/24 has a free /24 on each side.
  auto got = a.take_near(ip_version::v4, 24, {P("fd00::/64"), P("10.0.200.0/24"), P("10.0.16.0/20")});
  ASSERT_TRUE(got);
  EXPECT_EQ(got->second, 1u);
  EXPECT_EQ(got->first, P("10.0.201.0/24"));  // above and below equally near, the /24 above is the smaller block
}

TEST(PrefixAllocator, TakeNearWithoutATargetOfItsVersionIsBestFit) {
  address_set free = address_set{P("10.0.0.0/22")} - address_set{P("10.0.1.0/25")};
  prefix_allocator a(free), b(free);
  for (int length : {26, 26, 24, 24}) {
    auto got = a.take_near(ip_version::v4, length, {P("fd00::/64")});
    ASSERT_TRUE(got);
    EXPECT_EQ(got->second, 1u);  // no target: near.size()
    EXPECT_EQ(got->first, b.take(ip_version::v4, length));
  }
  EXPECT_EQ(a.free_space(), b.free_space());
}

// take_near against brute force on a /24: of every free aligned /L, none lies
// nearer the target than the one it takes, and the free space stays exact.
TEST(PrefixAllocator, TakeNearIsTheNearestFreeBlockOnRandomSpaces) {
  test::random_source rng(20261129);
  constexpr std::uint32_t base = 0x0A000000;  // 10.0.0.0
  for (int round = 0; round < 300; ++round) {
    std::bitset<256> free;
    for (unsigned j = 0; j < 256; ++j) free[j] = rng() % 5 != 0;
    // The target: a run of used addresses.
    unsigned t_first = rng() % 256, t_last = std::min(255u, t_first + rng() % 16);
    for (unsigned j = t_first; j <= t_last; ++j) free[j] = false;
    address_set_builder b;
    for (unsigned j = 0; j < 256; ++j) {
      if (free[j]) b.add(address::v4(base + j));
    }
    prefix_allocator a(b.build());
    auto target = address_range::make(address::v4(base + t_first), address::v4(base + t_last));
    auto target_prefixes = target.to_prefixes();
    // Many steps, best-fit takes among them, so that takes next to the target
    // skip blocks removed before (the links neighbours() shortens).
    for (int step = 0; step < 24; ++step) {
      int length = 26 + static_cast<int>(rng() % 7);
      unsigned size = 1u << (32 - length);
      if (step % 4 == 3) {
        if (auto p = a.take(ip_version::v4, length)) {
          auto s = static_cast<unsigned>(p->network().bits() - base);
          for (unsigned j = s; j < s + size; ++j) {
            ASSERT_TRUE(free[j]) << "round " << round << " took " << p->to_string();
            free[j] = false;
          }
        }
        continue;
      }
      std::optional<unsigned> nearest;  // the least distance of a free aligned /length
      for (unsigned s = 0; s < 256; s += size) {
        bool all = true;
        for (unsigned j = s; j < s + size; ++j) all = all && free[j];
        if (!all) continue;
        unsigned d = s + size - 1 < t_first ? t_first - (s + size - 1) : s > t_last ? s - t_last : 0;
        if (!nearest || d < *nearest) nearest = d;
      }
      // Every prefix of the target run is a target; the distance to the run is the least over them.
      auto got = a.take_near(ip_version::v4, length, target_prefixes);
      ASSERT_EQ(got.has_value(), nearest.has_value()) << "round " << round << " step " << step;
      if (!got) continue;
      auto s = static_cast<unsigned>(got->first.network().bits() - base);
      for (unsigned j = s; j < s + size; ++j) {
        ASSERT_TRUE(free[j]) << "round " << round << " took " << got->first.to_string();
        free[j] = false;
      }
      unsigned d = s + size - 1 < t_first ? t_first - (s + size - 1) : s > t_last ? s - t_last : 0;
      ASSERT_EQ(d, *nearest) << "round " << round << " step " << step << " took " << got->first.to_string();
      address_set_builder left;
      for (unsigned j = 0; j < 256; ++j) {
        if (free[j]) left.add(address::v4(base + j));
      }
      ASSERT_EQ(a.free_space(), left.build()) << "round " << round << " step " << step;
    }
  }
}

}  // namespace
}  // namespace cidrcheck
