#include <cidrcheck/address.hpp>
#include <cidrcheck/iostream.hpp>

#include <gtest/gtest.h>

#include <string_view>
#include <type_traits>
#include <unordered_set>

namespace cidrcheck {
namespace {

// Compile-time promises: small, regular, constexpr.
static_assert(std::is_trivially_copyable_v<address>);
static_assert(sizeof(address) <= 24);
static_assert(address::try_parse("192.0.2.1")->v4_bits() == 0xc0000201);
static_assert(!address::try_parse("192.0.2.256"));
static_assert(address::v4(0xffffffff).next() == address{});

struct round_trip_case {
  std::string_view in;
  std::string_view canonical;
};

TEST(AddressParse, PrintsCanonicalRfc5952Text) {
  const round_trip_case cases[] = {
      {"0.0.0.0", "0.0.0.0"},
      {"255.255.255.255", "255.255.255.255"},
      {"192.0.2.1", "192.0.2.1"},
      {"::", "::"},
      {"::1", "::1"},
      {"1::", "1::"},
      {"2001:DB8::1", "2001:db8::1"},                           // lowercase
      {"2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"},  // leading zeros dropped
      {"2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"},            // first of equal runs
      {"2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"},         // a single zero group stays
      {"2001:0:0:1:0:0:0:1", "2001:0:0:1::1"},                  // the longest run wins
      {"1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"},
      {"::ffff:192.0.2.1", "::ffff:192.0.2.1"},                 // IPv4-mapped keeps the dotted tail
      {"::ffff:c000:201", "::ffff:192.0.2.1"},
      {"::ffff:0:0", "::ffff:0.0.0.0"},
      {"64:ff9b::192.0.2.1", "64:ff9b::c000:201"},              // other embeddings print as hex
      {"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    auto a = address::parse(c.in);
    EXPECT_EQ(a.to_string(), c.canonical);
    EXPECT_EQ(address::parse(a.to_string()), a);  // round trip
  }
}

struct error_case {
  std::string_view in;
  parse_errc code;
  std::uint32_t offset;
};

TEST(AddressParse, RejectsMalformedTextWithCodeAndOffset) {
  const error_case cases[] = {
      {"", parse_errc::empty, 0},
      {"1.2.3", parse_errc::too_few_octets, 5},
      {"1.2.3.4.5", parse_errc::too_many_octets, 7},
      {"1.2.3.256", parse_errc::octet_out_of_range, 6},
      {"1.2.3.1000", parse_errc::octet_out_of_range, 6},
      {"01.2.3.4", parse_errc::leading_zero, 0},
      {"1..3.4", parse_errc::empty_group, 2},
      {"1.2.3.", parse_errc::empty_group, 6},
      {"1.2.3.4 ", parse_errc::bad_character, 7},
      {" 1.2.3.4", parse_errc::bad_character, 0},
      {"1.2.3.x", parse_errc::bad_character, 6},
      {"1:2:3:4:5:6:7", parse_errc::too_few_groups, 13},
      {"1:2:3:4:5:6:7:8:9", parse_errc::too_many_groups, 16},
      {"1:2:3:4:5:6:7:8::", parse_errc::too_many_groups, 17},  // "::" must stand for a group
      {"1::2::3", parse_errc::multiple_double_colon, 4},
      {"12345::", parse_errc::group_too_long, 0},
      {":1::", parse_errc::empty_group, 0},
      {"1:", parse_errc::empty_group, 2},
      {"fe80::1%eth0", parse_errc::zone_not_allowed, 7},
      {"::ffff:1.2.3", parse_errc::bad_embedded_ipv4, 12},
      {"::1.2.3.4:1", parse_errc::bad_embedded_ipv4, 9},  // a dotted quad must come last
      {"1:2:3:4:5:6:7:1.2.3.4", parse_errc::too_many_groups, 14},
      {"g::", parse_errc::bad_character, 0},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    auto r = address::try_parse(c.in);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, c.code);
    EXPECT_EQ(r.error().offset, c.offset);
    EXPECT_THROW(address::parse(c.in), parse_error);
    EXPECT_THROW(address::parse(c.in), std::invalid_argument);
  }
}

TEST(AddressParse, MessageNamesInputAndPosition) {
  try {
    address::parse("10.0.0.256");
    FAIL();
  } catch (const parse_error& e) {
    EXPECT_STREQ(e.what(), R"(invalid address "10.0.0.256": octet out of range (at "256"))");
    EXPECT_EQ(e.offset(), 7u);
    EXPECT_EQ(e.code(), parse_errc::octet_out_of_range);
    EXPECT_EQ(e.input(), "10.0.0.256");
  }
}

TEST(AddressParse, MessageEscapesAndShortensHostileInput) {
  std::string hostile = std::string("1.2.3.\x01\xff") + std::string(200, 'A');
  try {
    address::parse(hostile);
    FAIL();
  } catch (const parse_error& e) {
    std::string_view what = e.what();
    EXPECT_NE(what.find(R"(1.2.3.\x01\xff)"), std::string_view::npos);
    EXPECT_LT(what.size(), 160u);
    EXPECT_EQ(what.find('\x01'), std::string_view::npos);
  }
}

TEST(Address, OrdersByVersionFirst) {
  EXPECT_LT(address::parse("255.255.255.255"), address::parse("::"));
  EXPECT_LT(address::parse("10.0.0.1"), address::parse("10.0.0.2"));
  EXPECT_LT(address{}, address::parse("0.0.0.0"));
}

TEST(Address, IPv4AndMappedIPv6AreDifferent) {
  auto v4 = address::parse("192.0.2.1");
  auto mapped = address::parse("::ffff:192.0.2.1");
  EXPECT_NE(v4, mapped);
  EXPECT_EQ(v4.version(), ip_version::v4);
  EXPECT_EQ(mapped.version(), ip_version::v6);
}

TEST(Address, NextAndPrevStopAtTheEdgesOfTheFamily) {
  EXPECT_EQ(address::parse("10.0.0.255").next(), address::parse("10.0.1.0"));
  EXPECT_FALSE(address::parse("255.255.255.255").next().is_valid());
  EXPECT_FALSE(address::parse("0.0.0.0").prev().is_valid());
  EXPECT_FALSE(address::parse("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff").next().is_valid());
  EXPECT_EQ(address::parse("::ffff:ffff:ffff").next(), address::parse("::1:0:0:0"));
  EXPECT_FALSE(address{}.next().is_valid());
}

TEST(Address, DefaultIsInvalid) {
  address a;
  EXPECT_FALSE(a.is_valid());
  EXPECT_EQ(a.version(), ip_version::none);
  EXPECT_EQ(a.to_string(), "invalid");
}

TEST(Address, HashAgreesWithEquality) {
  std::unordered_set<address> s{address::parse("10.0.0.1"), address::parse("::a00:1"), address::parse("10.0.0.1")};
  EXPECT_EQ(s.size(), 2u);
}

}  // namespace
}  // namespace cidrcheck
