#include <cidrcheck/algorithms.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using cidrcheck::address;
using cidrcheck::prefix;

auto prefixes(std::initializer_list<const char*> texts) -> std::vector<prefix> {
  std::vector<prefix> out;
  for (const auto* t : texts) out.push_back(prefix::parse(t));
  return out;
}

TEST(Collapse, JoinsAdjacentAndDropsContainedPrefixesIpv4First) {
  auto got = cidrcheck::collapse(prefixes({"2001:db8::/33", "10.0.1.0/24", "2001:db8:8000::/33", "10.0.0.0/24",
                                           "10.0.0.128/25", "192.168.0.0/16"}));
  EXPECT_EQ(got, prefixes({"10.0.0.0/23", "192.168.0.0/16", "2001:db8::/32"}));
}

TEST(Collapse, NeverJoinsAcrossFamilies) {
  // 255.255.255.255 and :: are no neighbours: families never share a number line.
  auto got = cidrcheck::collapse(prefixes({"255.255.255.255/32", "::/128"}));
  EXPECT_EQ(got, prefixes({"255.255.255.255/32", "::/128"}));
}

TEST(Collapse, OfNothingIsNothing) { EXPECT_TRUE(cidrcheck::collapse(std::vector<prefix>{}).empty()); }

TEST(Collapse, TakesItemsThroughAProjection) {
  std::vector<std::pair<std::string, prefix>> items{{"a", prefix::parse("10.0.0.0/25")},
                                                    {"b", prefix::parse("10.0.0.128/25")}};
  auto got = cidrcheck::collapse(items, [](const auto& item) -> const prefix& { return item.second; });
  EXPECT_EQ(got, prefixes({"10.0.0.0/24"}));
}

// The streaming form hands out the cover one prefix at a time, in collapse()'s order.
TEST(ForEachCollapsed, StreamsTheCoverInOrder) {
  auto items = prefixes({"2001:db8::/33", "10.0.1.0/24", "2001:db8:8000::/33", "10.0.0.0/24", "10.0.0.128/25",
                         "10.0.3.0/24"});
  std::vector<std::string> seen;
  cidrcheck::for_each_collapsed(items, [](const prefix& p) -> const prefix& { return p; },
                                [&](const prefix& p) { seen.push_back(p.to_string()); });
  EXPECT_EQ(seen, (std::vector<std::string>{"10.0.0.0/23", "10.0.3.0/24", "2001:db8::/32"}));
}

// Overlapping pairs of IPv4 prefixes at the edges of the space: the sweep derives
// each prefix's last address from its length (/0 and /32 included).
TEST(OverlappingPairs, DerivesLastAddressesAtTheEdges) {
  auto items = prefixes({"0.0.0.0/0", "255.255.255.255/32", "255.255.255.254/31", "0.0.0.0/32", "128.0.0.0/1"});
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  cidrcheck::for_each_overlapping_pair(items, [&](std::size_t i, std::size_t j) { pairs.emplace_back(i, j); });
  std::sort(pairs.begin(), pairs.end());
  EXPECT_EQ(pairs, (std::vector<std::pair<std::size_t, std::size_t>>{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {2, 1}, {4, 1}, {4, 2}}));
}

// Past 256 items the IPv4 sweep and cover take the radix sort: both agree with
// the plain definitions (every pair compared; the set's own cover).
TEST(OverlappingPairs, RadixSortedSweepAgreesWithComparingEveryPair) {
  std::mt19937 random(29);
  std::vector<prefix> items;
  for (int k = 0; k < 2000; ++k) {
    int length = 8 + static_cast<int>(random() % 25);
    items.push_back(prefix::containing(address::v4(random() & 0x0fffffffu), length));
  }
  std::uint64_t naive = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    for (std::size_t j = i + 1; j < items.size(); ++j) naive += items[i].overlaps(items[j]) ? 1 : 0;
  }
  EXPECT_GT(naive, 0u);
  EXPECT_EQ(cidrcheck::count_overlapping_pairs(items), naive);

  cidrcheck::address_set_builder b;
  for (const auto& p : items) b.add(p);
  EXPECT_EQ(cidrcheck::collapse(items), b.build().prefixes());
}

// The count over compact keys (what `set overlaps --count` runs) and the
// indexed sweep agree with comparing every pair, in both families, with
// duplicates stacking deeper than one prefix a length.
TEST(OverlappingPairs, KeysCountAgreesWithTheIndexedSweepInBothFamilies) {
  std::mt19937 random(30);
  std::vector<prefix> items;
  for (int k = 0; k < 1200; ++k) {
    int length = 4 + static_cast<int>(random() % 9);
    auto top = static_cast<std::uint32_t>(random() % 16);  // 16 blocks of /4: many nest, some repeat
    auto v6 = prefix::containing(address::v6(cidrcheck::uint128{top} << 124), length);
    items.push_back(k % 2 ? v6 : prefix::containing(address::v4(top << 28), length));
  }
  std::uint64_t naive = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    for (std::size_t j = i + 1; j < items.size(); ++j) naive += items[i].overlaps(items[j]) ? 1 : 0;
  }
  std::uint64_t indexed = 0;
  cidrcheck::for_each_overlapping_pair(items, [&](std::size_t, std::size_t) { ++indexed; });
  cidrcheck::prefix_keys keys;
  for (const auto& p : items) keys.push_back(p);
  EXPECT_GT(naive, items.size());
  EXPECT_EQ(cidrcheck::count_overlapping_pairs(keys), naive);
  EXPECT_EQ(indexed, naive);
}

TEST(Exclude, LeavesTheBlocksAroundTheHoleSorted) {
  EXPECT_EQ(cidrcheck::exclude(prefix::parse("10.0.0.0/24"), prefix::parse("10.0.0.64/26")),
            prefixes({"10.0.0.0/26", "10.0.0.128/25"}));
}

TEST(Exclude, EdgeCases) {
  auto p = prefix::parse("10.0.0.0/24");
  EXPECT_EQ(cidrcheck::exclude(p, prefix::parse("10.1.0.0/24")), std::vector<prefix>{p});  // disjoint: p itself
  EXPECT_TRUE(cidrcheck::exclude(p, prefix::parse("10.0.0.0/8")).empty());                 // covered: nothing
  EXPECT_TRUE(cidrcheck::exclude(p, p).empty());                                           // itself: nothing
  EXPECT_EQ(cidrcheck::exclude(p, prefix::parse("::/0")), std::vector<prefix>{p});         // other family
}

TEST(Summarize, CoversAnInclusiveRangeMinimally) {
  EXPECT_EQ(cidrcheck::summarize(address::parse("10.0.0.1"), address::parse("10.0.0.6")),
            prefixes({"10.0.0.1/32", "10.0.0.2/31", "10.0.0.4/31", "10.0.0.6/32"}));
  EXPECT_EQ(cidrcheck::summarize(address::parse("::"), address::parse("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")),
            prefixes({"::/0"}));
}

TEST(Summarize, RefusesMixedFamiliesAndReversedRanges) {
  EXPECT_THROW(cidrcheck::summarize(address::parse("10.0.0.1"), address::parse("::1")), cidrcheck::parse_error);
  EXPECT_THROW(cidrcheck::summarize(address::parse("10.0.0.2"), address::parse("10.0.0.1")), cidrcheck::parse_error);
}

TEST(OverlappingPairs, CountsEveryPairOnceEqualPrefixesIncluded) {
  auto list = prefixes({"10.0.0.0/8", "10.1.0.0/16", "10.1.0.0/16", "192.168.0.0/16", "::/0"});
  // 10/8 with both 10.1/16, and the two 10.1/16 with each other; ::/0 meets no IPv4 prefix.
  EXPECT_EQ(cidrcheck::count_overlapping_pairs(list), 3U);
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  cidrcheck::for_each_overlapping_pair(list, [&](auto i, auto j) { pairs.emplace_back(i, j); });
  ASSERT_EQ(pairs.size(), 3U);
  for (auto [i, j] : pairs) {
    EXPECT_NE(i, j);
    EXPECT_TRUE(list[i].overlaps(list[j]));
  }
}

}  // namespace
