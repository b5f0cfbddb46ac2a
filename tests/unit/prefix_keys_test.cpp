#include <cidrcheck/prefix_keys.hpp>

#include "random.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cidrcheck {
namespace {

auto random_prefix(test::random_source& next, ip_version v) -> prefix {
  if (v == ip_version::v4) return prefix::containing(address::v4(next()), static_cast<int>(next() % 33));
  auto bits = uint128{next()} << 96 | uint128{next()} << 64 | uint128{next()} << 32 | next();
  return prefix::containing(address::v6(bits % 4 == 0 ? 0 : bits), static_cast<int>(next() % 129));
}

// A key gives its prefix back, and keys sort as their prefixes do: as plain
// integers for IPv4, by (network, length) for IPv6.
TEST(PrefixKeys, RoundTripAndSortAsPrefixesDo) {
  test::random_source next(7);
  prefix_keys keys;
  std::vector<prefix> v4, v6;
  for (int k = 0; k < 2000; ++k) {
    auto p = random_prefix(next, k % 2 ? ip_version::v6 : ip_version::v4);
    keys.push_back(p);
    (k % 2 ? v6 : v4).push_back(p);
  }
  ASSERT_EQ(keys.size(), 2000u);
  for (std::size_t k = 0; k < v4.size(); ++k) {
    ASSERT_EQ(prefix_keys::v4_prefix(keys.v4[k]), v4[k]);
    ASSERT_EQ(prefix_keys::v4_first(keys.v4[k]), v4[k].network().v4_bits());
    ASSERT_EQ(prefix_keys::v4_last(keys.v4[k]), v4[k].last().v4_bits());
  }
  for (std::size_t k = 0; k < v6.size(); ++k) {
    ASSERT_EQ(prefix_keys::v6_prefix(keys.v6[k]), v6[k]);
    ASSERT_EQ(prefix_keys::v6_first(keys.v6[k]), v6[k].network().bits());
    ASSERT_EQ(prefix_keys::v6_last(keys.v6[k]), v6[k].last().bits());
  }
  std::sort(keys.v4.begin(), keys.v4.end());
  std::sort(keys.v6.begin(), keys.v6.end());
  std::sort(v4.begin(), v4.end());
  std::sort(v6.begin(), v6.end());
  for (std::size_t k = 0; k < v4.size(); ++k) ASSERT_EQ(prefix_keys::v4_prefix(keys.v4[k]), v4[k]);
  for (std::size_t k = 0; k < v6.size(); ++k) ASSERT_EQ(prefix_keys::v6_prefix(keys.v6[k]), v6[k]);
}

TEST(PrefixKeys, TheWidestIPv4KeyFitsItsBits) {
  auto key = prefix_keys::v4_key(0xffffffffu, 32);
  EXPECT_LT(key, std::uint64_t{1} << prefix_keys::v4_key_bits);
  EXPECT_EQ(prefix_keys::v4_prefix(key), prefix::parse("255.255.255.255/32"));
  EXPECT_EQ(prefix_keys::v4_last(prefix_keys::v4_key(0, 0)), 0xffffffffu);
}

TEST(PrefixKeys, AnInvalidPrefixIsNotAdded) {
  prefix_keys keys;
  keys.push_back(prefix{});
  EXPECT_EQ(keys.size(), 0u);
}

}  // namespace
}  // namespace cidrcheck
