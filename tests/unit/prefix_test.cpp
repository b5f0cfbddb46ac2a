#include <cidrcheck/prefix.hpp>
#include <cidrcheck/iostream.hpp>

#include <gtest/gtest.h>

#include <string_view>
#include <type_traits>
#include <vector>

namespace cidrcheck {
namespace {

static_assert(std::is_trivially_copyable_v<prefix>);
static_assert(prefix::try_parse("10.0.0.0/8")->length() == 8);  // the parser runs at compile time
static_assert(prefix::try_parse("10.0.0.1/8").error().code == parse_errc::host_bits_set);
static_assert(prefix::try_parse("10.0.0.1/8", host_bits::mask)->network() == address::v4(0x0a000000));

auto P(std::string_view s) { return prefix::parse(s); }
auto A(std::string_view s) { return address::parse(s); }

TEST(PrefixParse, AcceptsTheEdgesOfBothFamilies) {
  for (std::string_view s : {"0.0.0.0/0", "255.255.255.255/32", "10.0.0.0/31", "::/0", "::/128", "2001:db8::/127",
                             "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128"}) {
    SCOPED_TRACE(s);
    EXPECT_EQ(P(s).to_string(), s);
  }
  // IPv4-mapped text keeps its dotted tail, as netip prints it.
  EXPECT_EQ(P("::ffff:0:0/96").to_string(), "::ffff:0.0.0.0/96");
}

TEST(PrefixParse, RejectsHostBitsInStrictModeWithTheCanonicalForm) {
  try {
    P("10.0.0.1/24");
    FAIL();
  } catch (const parse_error& e) {
    EXPECT_EQ(e.code(), parse_errc::host_bits_set);
    EXPECT_STREQ(e.what(), R"(invalid prefix "10.0.0.1/24": host bits set (did you mean 10.0.0.0/24?))");
  }
  EXPECT_EQ(prefix::parse("10.0.0.1/24", host_bits::mask), P("10.0.0.0/24"));
  EXPECT_EQ(prefix::parse("2001:db8::1/32", host_bits::mask), P("2001:db8::/32"));
}

TEST(PrefixParse, SuggestsTheHostPrefixForABareAddress) {
  try {
    P("10.0.0.1");
    FAIL();
  } catch (const parse_error& e) {
    EXPECT_EQ(e.code(), parse_errc::missing_length);
    EXPECT_STREQ(e.what(), R"(invalid prefix "10.0.0.1": missing prefix length (did you mean 10.0.0.1/32?))");
  }
}

TEST(PrefixParse, RejectsBadLengths) {
  struct {
    std::string_view in;
    parse_errc code;
    std::uint32_t offset;
  } const cases[] = {
      {"10.0.0.0/33", parse_errc::length_out_of_range, 9},
      {"::/129", parse_errc::length_out_of_range, 3},
      {"10.0.0.0/", parse_errc::bad_length, 9},
      {"10.0.0.0/8x", parse_errc::bad_length, 10},
      {"10.0.0.0/-1", parse_errc::bad_length, 9},
      {"10.0.0.0/08", parse_errc::leading_zero, 9},
      {"10.0.0.0/1000", parse_errc::length_out_of_range, 9},
      {"10.0.0.0/8/8", parse_errc::bad_length, 10},
      {"10.0.0.256/24", parse_errc::octet_out_of_range, 7},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    auto r = prefix::try_parse(c.in);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, c.code);
    EXPECT_EQ(r.error().offset, c.offset);
  }
}

TEST(Prefix, LastAndSizeIncludeSizesBeyond64Bits) {
  EXPECT_EQ(P("10.0.0.0/8").last(), A("10.255.255.255"));
  EXPECT_EQ(P("0.0.0.0/0").size(), uint128{1} << 32);
  EXPECT_EQ(P("255.255.255.255/32").size(), 1u);
  EXPECT_EQ(P("10.0.0.0/31").size(), 2u);
  EXPECT_EQ(P("2001:db8::/127").size(), 2u);
  EXPECT_EQ(P("2001:db8::/32").size(), uint128{1} << 96);
  EXPECT_EQ(P("::/1").size(), uint128{1} << 127);
  EXPECT_EQ(P("::/0").size(), detail::uint128_max);  // 2^128 saturates
  EXPECT_EQ(P("::/0").last(), A("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"));
}

TEST(Prefix, RelationsFollowPythonIpaddress) {
  auto p8 = P("10.0.0.0/8"), p16 = P("10.1.0.0/16"), other = P("11.0.0.0/8");
  EXPECT_TRUE(p8.overlaps(p16));
  EXPECT_TRUE(p16.overlaps(p8));
  EXPECT_FALSE(p8.overlaps(other));
  EXPECT_TRUE(p16.subnet_of(p8));
  EXPECT_FALSE(p8.subnet_of(p16));
  EXPECT_TRUE(p8.supernet_of(p16));
  EXPECT_TRUE(p8.subnet_of(p8));  // equal prefixes are each other's subnet and supernet
  EXPECT_TRUE(p8.contains(A("10.255.255.255")));
  EXPECT_FALSE(p8.contains(A("11.0.0.0")));
  EXPECT_TRUE(P("0.0.0.0/0").contains(A("255.255.255.255")));
}

TEST(Prefix, FamiliesNeverMix) {
  auto v4all = P("0.0.0.0/0"), mapped = P("::ffff:0:0/96"), v6all = P("::/0");
  EXPECT_FALSE(v4all.overlaps(mapped));
  EXPECT_FALSE(v4all.overlaps(v6all));
  EXPECT_FALSE(mapped.subnet_of(v4all));
  EXPECT_FALSE(v4all.contains(A("::ffff:10.0.0.1")));
  EXPECT_FALSE(mapped.contains(A("10.0.0.1")));
  EXPECT_TRUE(mapped.contains(A("::ffff:10.0.0.1")));
  EXPECT_LT(v4all, mapped);  // every IPv4 prefix sorts before every IPv6 one
}

TEST(Prefix, SubnetsAndSupernet) {
  std::vector<prefix> halves(P("10.0.0.0/30").subnets().begin(), P("10.0.0.0/30").subnets().end());
  EXPECT_EQ(halves, (std::vector<prefix>{P("10.0.0.0/31"), P("10.0.0.2/31")}));
  std::vector<std::string> quarters;
  for (auto p : P("10.0.0.0/30").subnets(32)) quarters.push_back(p.to_string());
  EXPECT_EQ(quarters, (std::vector<std::string>{"10.0.0.0/32", "10.0.0.1/32", "10.0.0.2/32", "10.0.0.3/32"}));
  EXPECT_EQ(P("10.0.0.0/8").subnets(8).size(), 1u);
  EXPECT_EQ(P("::/0").subnets(128).size(), detail::uint128_max);  // 2^128 saturates
  EXPECT_EQ(P("::/0").subnets(128)[detail::uint128_max], P("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128"));
  EXPECT_EQ(P("255.255.255.254/31").subnets(32)[1], P("255.255.255.255/32"));
  EXPECT_THROW(P("10.0.0.0/8").subnets(7), std::invalid_argument);
  EXPECT_THROW(P("10.0.0.0/32").subnets(), std::invalid_argument);
  EXPECT_THROW(P("10.0.0.0/8").subnets(33), std::invalid_argument);

  EXPECT_EQ(P("10.1.0.0/16").supernet(), P("10.0.0.0/15"));
  EXPECT_EQ(P("10.1.0.0/16").supernet(8), P("10.0.0.0/8"));
  EXPECT_EQ(P("2001:db8::/32").supernet(0), P("::/0"));
  EXPECT_THROW(P("0.0.0.0/0").supernet(), std::invalid_argument);
  EXPECT_THROW(P("10.0.0.0/8").supernet(9), std::invalid_argument);
}

TEST(Prefix, ContainingClearsHostBitsAndRejectsBadLengths) {
  EXPECT_EQ(prefix::containing(A("10.1.2.3"), 16), P("10.1.0.0/16"));
  EXPECT_EQ(prefix::containing(A("10.1.2.3"), 0), P("0.0.0.0/0"));
  EXPECT_FALSE(prefix::containing(A("10.1.2.3"), 33).is_valid());
  EXPECT_FALSE(prefix::containing(A("10.1.2.3"), -1).is_valid());
  EXPECT_FALSE(prefix::containing(address{}, 0).is_valid());
}

TEST(Prefix, OrdersByAddressThenLength) {
  EXPECT_LT(P("10.0.0.0/8"), P("10.0.0.0/16"));
  EXPECT_LT(P("10.0.0.0/16"), P("10.1.0.0/16"));
  EXPECT_LT(P("10.255.0.0/16"), P("11.0.0.0/8"));
}

}  // namespace
}  // namespace cidrcheck
