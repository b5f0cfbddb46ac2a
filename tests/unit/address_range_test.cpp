#include <cidrcheck/address_range.hpp>
#include <cidrcheck/algorithms.hpp>
#include <cidrcheck/iostream.hpp>

#include <gtest/gtest.h>

#include <algorithm>

#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {
namespace {

auto R(std::string_view s) { return address_range::parse(s); }
auto P(std::string_view s) { return prefix::parse(s); }
auto A(std::string_view s) { return address::parse(s); }

auto texts(const std::vector<prefix>& ps) {
  std::vector<std::string> out;
  for (const auto& p : ps) out.push_back(p.to_string());
  return out;
}

TEST(AddressRange, ParsesAndPrintsFirstDashLast) {
  EXPECT_EQ(R("10.0.0.0-10.0.0.255").to_string(), "10.0.0.0-10.0.0.255");
  EXPECT_EQ(R("2001:db8::-2001:db8::ff").to_string(), "2001:db8::-2001:db8::ff");
  EXPECT_EQ(R("10.0.0.5-10.0.0.5").size(), 1u);
}

TEST(AddressRange, RejectsMixedFamiliesAndReversedEnds) {
  EXPECT_EQ(address_range::try_parse("10.0.0.0-::1").error().code, parse_errc::family_mismatch);
  EXPECT_EQ(address_range::try_parse("10.0.0.9-10.0.0.1").error().code, parse_errc::range_reversed);
  EXPECT_EQ(address_range::try_parse("10.0.0.9").error().code, parse_errc::missing_dash);
  auto bad_last = address_range::try_parse("10.0.0.0-10.0.0.300");
  EXPECT_EQ(bad_last.error().code, parse_errc::octet_out_of_range);
  EXPECT_EQ(bad_last.error().offset, 16u);
  EXPECT_THROW(address_range::make(A("10.0.0.1"), A("::1")), parse_error);
}

TEST(AddressRange, ToPrefixesIsTheMinimalCover) {
  EXPECT_EQ(texts(R("10.0.0.1-10.0.0.6").to_prefixes()),
            (std::vector<std::string>{"10.0.0.1/32", "10.0.0.2/31", "10.0.0.4/31", "10.0.0.6/32"}));
  EXPECT_EQ(texts(R("0.0.0.0-255.255.255.255").to_prefixes()), (std::vector<std::string>{"0.0.0.0/0"}));
  EXPECT_EQ(texts(R("0.0.0.1-255.255.255.255").to_prefixes()).size(), 32u);
  EXPECT_EQ(texts(R("::-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff").to_prefixes()), (std::vector<std::string>{"::/0"}));
  EXPECT_EQ(R("::1-ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe").to_prefixes().size(), 2u * 128 - 2);
  EXPECT_EQ(texts(summarize(A("192.0.2.0"), A("192.0.2.130"))),
            (std::vector<std::string>{"192.0.2.0/25", "192.0.2.128/31", "192.0.2.130/32"}));
}

TEST(AddressRange, ToPrefixOnlyForExactBlocks) {
  EXPECT_EQ(R("10.0.0.0-10.0.0.255").to_prefix(), P("10.0.0.0/24"));
  EXPECT_EQ(R("10.0.0.0-10.0.1.0").to_prefix(), std::nullopt);
  EXPECT_EQ(R("::-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff").to_prefix(), P("::/0"));
}

TEST(AddressRange, SizeSaturatesOnlyForAllOfIPv6) {
  EXPECT_EQ(R("0.0.0.0-255.255.255.255").size(), uint128{1} << 32);
  EXPECT_EQ(R("::-ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe").size(), detail::uint128_max);
  EXPECT_EQ(R("::-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff").size(), detail::uint128_max);
}

TEST(AddressRange, RelationsNeverCrossFamilies) {
  auto r = R("10.0.0.0-10.0.0.255");
  EXPECT_TRUE(r.contains(A("10.0.0.7")));
  EXPECT_TRUE(r.contains(R("10.0.0.8-10.0.0.9")));
  EXPECT_TRUE(r.overlaps(R("10.0.0.255-10.0.1.0")));
  EXPECT_FALSE(r.overlaps(R("10.0.1.0-10.0.1.1")));  // touching is not overlapping
  EXPECT_FALSE(r.overlaps(R("::-::ffff:ffff:ffff")));
  EXPECT_FALSE(address_range(P("0.0.0.0/0")).contains(A("::ffff:10.0.0.1")));
}

TEST(Algorithms, ExcludeReturnsSortedRemainder) {
  EXPECT_EQ(texts(exclude(P("192.0.2.0/28"), P("192.0.2.1/32"))),
            (std::vector<std::string>{"192.0.2.0/32", "192.0.2.2/31", "192.0.2.4/30", "192.0.2.8/29"}));
  EXPECT_EQ(texts(exclude(P("10.0.0.0/8"), P("10.128.0.0/9"))), (std::vector<std::string>{"10.0.0.0/9"}));
  EXPECT_EQ(texts(exclude(P("10.0.0.0/8"), P("11.0.0.0/8"))), (std::vector<std::string>{"10.0.0.0/8"}));
  EXPECT_TRUE(exclude(P("10.0.0.0/8"), P("10.0.0.0/8")).empty());
  EXPECT_TRUE(exclude(P("10.1.0.0/16"), P("10.0.0.0/8")).empty());
  EXPECT_EQ(exclude(P("::/0"), P("::1/128")).size(), 128u);
  EXPECT_EQ(texts(exclude(P("0.0.0.0/0"), P("::/0"))), (std::vector<std::string>{"0.0.0.0/0"}));
}

TEST(Algorithms, CollapseMergesAdjacentAndNestedPrefixes) {
  std::vector<prefix> in{P("10.0.1.0/24"), P("10.0.0.0/24"), P("10.0.0.128/25"), P("::1/128"), P("::/128"),
                         P("192.168.0.0/16")};
  EXPECT_EQ(texts(collapse(in)), (std::vector<std::string>{"10.0.0.0/23", "192.168.0.0/16", "::/127"}));
  EXPECT_TRUE(collapse({}).empty());
}

TEST(Algorithms, OverlappingPairsCountsEqualAndNestedPrefixes) {
  std::vector<prefix> in{P("10.0.0.0/8"), P("10.1.0.0/16"), P("10.1.0.0/16"), P("11.0.0.0/8"), P("::/0"),
                         P("0.0.0.0/0")};
  // 0/0 with the four IPv4 ones; 10/8 with both /16s; the two equal /16s.
  EXPECT_EQ(count_overlapping_pairs(in), 4u + 2u + 1u);
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for_each_overlapping_pair(in, [&](std::size_t i, std::size_t j) { pairs.emplace_back(i, j); });
  EXPECT_EQ(pairs.size(), 7u);
  for (auto [i, j] : pairs) EXPECT_TRUE(in[i].supernet_of(in[j]));
}

// The in-order variant gives the same pairs as the sweep, each once as (i < j),
// in the order of (i, j), with equal, nested, IPv4 and IPv6 prefixes mixed.
TEST(Algorithms, OverlappingPairsInOrderAreTheSweepsPairsSorted) {
  std::vector<prefix> in;
  unsigned seed = 12345;
  auto next = [&] {
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
  };
  for (int k = 0; k < 3000; ++k) {
    int length = static_cast<int>(next() % 9) + 8;  // /8 to /16 inside 10.0.0.0/8: many nest
    auto bits = 0x0A000000u | (next() & 0x00FFFFFFu);
    in.push_back(prefix::containing(address::v4(bits), length));
    if (k % 7 == 0) in.push_back(in.back());  // duplicates are pairs too
    if (k % 11 == 0) in.push_back(prefix::parse("fd00::/" + std::to_string(8 + static_cast<int>(next() % 56))));
  }
  in.push_back(prefix::parse("0.0.0.0/0"));
  in.push_back(prefix::parse("::/0"));
  std::vector<std::pair<std::size_t, std::size_t>> swept, ordered;
  for_each_overlapping_pair(in, [&](std::size_t i, std::size_t j) { swept.emplace_back(std::min(i, j), std::max(i, j)); });
  std::sort(swept.begin(), swept.end());
  for_each_overlapping_pair_in_order(in, [](const prefix& p) -> const prefix& { return p; },
                                     [&](std::size_t i, std::size_t j) { ordered.emplace_back(i, j); });
  EXPECT_GT(swept.size(), in.size());
  EXPECT_EQ(ordered, swept);
}

}  // namespace
}  // namespace cidrcheck
