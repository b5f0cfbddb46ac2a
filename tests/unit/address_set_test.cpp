#include <cidrcheck/address_set.hpp>
#include <cidrcheck/algorithms.hpp>
#include <cidrcheck/iostream.hpp>

#include "random.hpp"

#include <gtest/gtest.h>

#include <bitset>
#include <random>
#include <string_view>
#include <vector>

namespace cidrcheck {
namespace {

auto P(std::string_view s) { return prefix::parse(s); }
auto A(std::string_view s) { return address::parse(s); }

TEST(AddressSet, MergesAdjacentAndOverlappingRanges) {
  address_set s{P("10.0.0.0/24"), P("10.0.1.0/24"), P("10.0.0.128/25")};
  EXPECT_EQ(s.range_count(), 1u);
  EXPECT_EQ(s.prefixes(), std::vector<prefix>{P("10.0.0.0/23")});
  EXPECT_EQ(s.size(), 512u);
}

TEST(AddressSet, HandlesTheTopAndBottomOfEachSpace) {
  address_set_builder b;
  b.add(P("255.255.255.255/32"));
  b.add(P("0.0.0.0/32"));
  b.add(P("::/128"));
  b.add(P("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128"));
  auto s = b.build();
  EXPECT_EQ(s.range_count(), 4u);
  EXPECT_TRUE(s.contains(A("255.255.255.255")));
  EXPECT_TRUE(s.contains(A("::")));
  EXPECT_FALSE(s.contains(A("::1")));

  address_set all{P("0.0.0.0/0"), P("::/0")};
  EXPECT_EQ(all.prefixes(), (std::vector<prefix>{P("0.0.0.0/0"), P("::/0")}));
  EXPECT_EQ(all.size(), detail::uint128_max);  // 2^32 + 2^128 saturates
  EXPECT_EQ((all - s).range_count(), 2u);  // everything between the four edges
  EXPECT_EQ(address_set{P("0.0.0.0/0")}.size(), uint128{1} << 32);
}

TEST(AddressSet, NeverJoinsTheFamiliesAtTheirEdges) {
  // 255.255.255.255 and :: are numerically adjacent in a shared number line; they must not join.
  address_set s{P("255.255.255.255/32"), P("::/128"), P("::ffff:0:0/96")};
  EXPECT_EQ(s.range_count(), 3u);
  EXPECT_FALSE(s.contains(A("10.0.0.1")));  // IPv4 is not inside IPv4-mapped IPv6
  EXPECT_FALSE(address_set{P("0.0.0.0/0")}.overlaps(address_set{P("::ffff:0:0/96")}));
  EXPECT_TRUE(s.only(ip_version::v4) == address_set{P("255.255.255.255/32")});
}

TEST(AddressSet, BuilderAppliesAddsAndRemovesInOrder) {
  address_set_builder b;
  b.add(P("10.0.0.0/8"));
  b.remove(P("10.1.0.0/16"));
  b.add(P("10.1.2.0/24"));
  b.remove(A("10.0.0.0"));
  auto s = b.build();
  EXPECT_FALSE(s.contains(A("10.0.0.0")));
  EXPECT_TRUE(s.contains(A("10.0.0.1")));
  EXPECT_FALSE(s.contains(A("10.1.0.0")));
  EXPECT_TRUE(s.contains(P("10.1.2.0/24")));
  EXPECT_FALSE(s.contains(P("10.1.0.0/16")));
  EXPECT_TRUE(s.overlaps(P("10.1.0.0/16")));
  b.add(P("10.1.0.0/16"));  // the builder stays usable after build()
  EXPECT_TRUE(b.build().contains(P("10.1.0.0/16")));
  EXPECT_FALSE(s.contains(P("10.1.0.0/16")));  // and the built set does not change
}

TEST(AddressSet, EqualityIsSetEquality) {
  address_set a{P("10.0.0.0/25"), P("10.0.0.128/25")};
  address_set b{P("10.0.0.0/24")};
  EXPECT_EQ(a, b);
  EXPECT_EQ(std::hash<address_set>{}(a), std::hash<address_set>{}(b));
  EXPECT_EQ(address_set{}, address_set{} - b);
}

// The oracle: random adds and removes of prefixes and ranges over a 256-address
// universe, checked against a std::bitset<256> (netipx's doIPSetFuzz).
template <ip_version V>
struct universe {
  static auto base() -> uint128 { return V == ip_version::v4 ? uint128{0x0a000000} : uint128{0x20010db8} << 96; }
  static auto at(unsigned offset) -> address { return address::from_bits(V, base() + offset); }
  static auto width() -> int { return bit_width(V); }
};

using bits256 = std::bitset<256>;

template <class U>
auto random_range(test::random_source& rng, unsigned& first, unsigned& last) -> address_range {
  if (rng() % 2) {
    int host = static_cast<int>(rng() % 9);  // a prefix of 1..256 addresses
    first = (rng() % 256) & ~((1u << host) - 1);
    last = first + (1u << host) - 1;
    return address_range(prefix::containing(U::at(first), U::width() - host));
  }
  first = rng() % 256;
  last = first + rng() % (256 - first);
  return address_range::make(U::at(first), U::at(last));
}

// The minimal prefix cover of a bitset: blocks fully in, whose parent is not.
template <class U>
auto cover_of(const bits256& b) -> std::vector<prefix> {
  std::vector<prefix> out;
  unsigned k = 0;
  while (k < 256) {
    if (!b[k]) {
      ++k;
      continue;
    }
    int host = 8;
    for (; host > 0; --host) {
      unsigned size = 1u << host;
      if (k % size != 0 || k + size > 256) continue;
      bool full = true;
      for (unsigned j = k; j < k + size; ++j) full = full && b[j];
      if (full) break;
    }
    out.push_back(prefix::containing(U::at(k), U::width() - host));
    k += 1u << host;
  }
  return out;
}

template <class U>
void expect_matches(const address_set& s, const bits256& model) {
  for (unsigned k = 0; k < 256; ++k) ASSERT_EQ(s.contains(U::at(k)), model[k]) << "offset " << k;
  EXPECT_EQ(s.size(), model.count());
  EXPECT_EQ(s.prefixes(), cover_of<U>(model));
}

template <class U>
auto random_set(test::random_source& rng, bits256& model) -> address_set {
  address_set_builder b;
  model.reset();
  int ops = static_cast<int>(rng() % 12);
  for (int op = 0; op < ops; ++op) {
    unsigned first = 0, last = 0;
    auto r = random_range<U>(rng, first, last);
    bool add = rng() % 3 != 0;
    for (unsigned k = first; k <= last; ++k) model[k] = add;
    if (add) {
      b.add(r);
    } else {
      b.remove(r);
    }
  }
  return b.build();
}

template <class U>
void run_oracle(unsigned seed) {
  test::random_source rng(seed);
  for (int round = 0; round < 400; ++round) {
    bits256 ma, mb;
    auto a = random_set<U>(rng, ma);
    auto b = random_set<U>(rng, mb);
    expect_matches<U>(a, ma);
    expect_matches<U>(a | b, ma | mb);
    expect_matches<U>(a & b, ma & mb);
    expect_matches<U>(a - b, ma & ~mb);
    expect_matches<U>(a ^ b, ma ^ mb);
    expect_matches<U>(a.complement_within(b), mb & ~ma);
    EXPECT_EQ(a.overlaps(b), (ma & mb).any());
    // Laws (ICL test_laws style).
    EXPECT_EQ(a | b, b | a);
    EXPECT_EQ(a & b, b & a);
    EXPECT_TRUE((a - a).empty());
    EXPECT_EQ((a - b) | (a & b), a);
    auto once = collapse(a.prefixes());
    EXPECT_EQ(collapse(once), once);
    // The flat collapse() and the ICL set agree.
    auto both = a.prefixes();
    for (const auto& p : b.prefixes()) both.push_back(p);
    EXPECT_EQ(collapse(both), (a | b).prefixes());
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(AddressSetOracle, MatchesABitsetModelForIPv4) { run_oracle<universe<ip_version::v4>>(1); }
TEST(AddressSetOracle, MatchesABitsetModelForIPv6) { run_oracle<universe<ip_version::v6>>(2); }

TEST(AddressSet, RoundTripsRandomTextInBothFamilies) {
  std::mt19937_64 rng(3);
  for (int k = 0; k < 2000; ++k) {
    auto bits = (uint128{rng()} << 64) | rng();
    // Bias toward zero runs, which exercise "::" placement.
    if (k % 3 == 0) bits &= (uint128{0xffff0000ffff0000ull} << 64) | 0xffff00000000ffffull;
    auto v6 = address::v6(bits);
    auto v4 = address::v4(static_cast<std::uint32_t>(rng()));
    ASSERT_EQ(address::parse(v6.to_string()), v6) << v6;
    ASSERT_EQ(address::parse(v4.to_string()), v4) << v4;
    int length = static_cast<int>(rng() % 129);
    auto p = prefix::containing(v6, length);
    ASSERT_EQ(prefix::parse(p.to_string()), p) << p;
    auto r = address_range::make(std::min(v4, address::v4(0x7f000000)), std::max(v4, address::v4(0x7f000000)));
    ASSERT_EQ(address_range::parse(r.to_string()), r) << r;
  }
}

}  // namespace
}  // namespace cidrcheck
