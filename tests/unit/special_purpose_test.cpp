#include <cidrcheck/special_purpose.hpp>

#include <gtest/gtest.h>

#include <string_view>

namespace cidrcheck {
namespace {

// The answers are constant expressions.
static_assert(is_private(*prefix::try_parse("10.1.0.0/16")));
static_assert(!is_global(*prefix::try_parse("10.1.0.0/16")));
static_assert(is_global(*prefix::try_parse("8.8.8.0/24")));
static_assert(!is_private(prefix{}) && !is_global(prefix{}));
static_assert(is_private(address::v4(0x0a000001)) && !is_global(address::v4(0x0a000001)));  // 10.0.0.1
static_assert(!is_private(address{}) && !is_global(address{}));

auto P(std::string_view s) { return prefix::parse(s); }

// Each expectation is what Python 3.11's ipaddress (Debian 12, with the
// python/cpython#113171 fix) answers for ip_network(text).
TEST(SpecialPurpose, ClassifiesLikePythonIpaddress) {
  struct {
    std::string_view in;
    bool is_private, is_global;
  } const cases[] = {
      {"10.0.0.0/8", true, false},
      {"10.0.0.0/7", false, true},             // wider than the block: not within one
      {"11.0.0.0/8", false, true},
      {"100.64.0.0/10", false, false},         // shared address space: neither
      {"100.0.0.0/9", false, true},            // wider than it
      {"100.127.255.255/32", false, false},    // its last address
      {"192.0.0.0/24", true, false},           // holds the exceptions, but they are not its ends
      {"192.0.0.8/31", false, true},           // ends on the exception 192.0.0.9
      {"192.0.0.9/32", false, true},           // an exception
      {"192.0.0.10/31", false, true},          // starts on the exception 192.0.0.10
      {"192.0.0.11/32", true, false},
      {"192.0.0.170/31", true, false},
      {"255.255.255.255/32", true, false},
      {"255.255.255.254/32", true, false},     // inside 240.0.0.0/4
      {"0.0.0.0/0", false, true},
      {"::/0", false, true},
      {"::/128", true, false},
      {"::/127", false, true},                 // ::1/128 and ::/128 are two blocks, neither holds both
      {"::ffff:10.0.0.0/104", true, false},    // inside ::ffff:0:0/96, whatever the IPv4 part
      {"::ffff:8.8.8.0/120", true, false},
      {"2001::/23", true, false},              // holds exceptions, not at its ends
      {"2001:1::/127", false, true},           // ends on 2001:1::1
      {"2001:1::/126", true, false},           // its ends miss 2001:1::1 and ::2
      {"2001:3::/32", false, true},
      {"2001:2::/31", false, true},            // ends in the exception 2001:3::/32
      {"2001:db8::/32", true, false},
      {"2002::/16", true, false},
      {"fc00::/7", true, false},
      {"fd00::/8", true, false},
      {"fe80::/10", true, false},
      {"fec0::/10", false, true},              // site-local: not listed
      {"64:ff9b::/96", false, true},           // globally reachable translation prefix
      {"64:ff9b:1::/48", true, false},
      {"2600::/16", false, true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    EXPECT_EQ(is_private(P(c.in)), c.is_private);
    EXPECT_EQ(is_global(P(c.in)), c.is_global);
  }
}

TEST(SpecialPurpose, EveryBlockIsPrivateAndEveryExceptionGlobal) {
  for (const auto& block : not_globally_reachable) {
    SCOPED_TRACE(block.to_string());
    EXPECT_TRUE(is_private(block));
  }
  for (const auto& exception : globally_reachable_exceptions) {
    SCOPED_TRACE(exception.to_string());
    EXPECT_FALSE(is_private(exception));
    EXPECT_TRUE(is_global(exception));
  }
}

// Each expectation is what Python's ipaddress answers for ip_address(text)
// (IPv4-mapped ones as CPython's main branch does; docs/python.md).
TEST(SpecialPurpose, ClassifiesAddressesLikePythonIpaddress) {
  struct {
    std::string_view in;
    bool is_private, is_global;
  } const cases[] = {
      {"10.1.2.3", true, false},
      {"9.255.255.255", false, true},          // just below 10.0.0.0/8
      {"100.64.0.0", false, false},            // shared address space: neither
      {"100.63.255.255", false, true},
      {"192.0.0.8", true, false},
      {"192.0.0.9", false, true},              // an exception inside 192.0.0.0/24
      {"192.0.0.10", false, true},
      {"255.255.255.255", true, false},
      {"0.0.0.0", true, false},
      {"8.8.8.8", false, true},
      {"::", true, false},
      {"::1", true, false},
      {"::2", false, true},
      {"::ffff:8.8.8.8", false, true},         // mapped: judged as 8.8.8.8, not by ::ffff:0:0/96
      {"::ffff:10.0.0.1", true, false},
      {"::ffff:100.64.0.1", false, false},     // mapped shared address space: neither
      {"::fffe:ffff:ffff", false, true},       // just below ::ffff:0:0/96
      {"2001:1::1", false, true},              // an exception
      {"2001:1::3", true, false},
      {"2001:db8::1", true, false},
      {"2002::1", true, false},
      {"fe80::1", true, false},
      {"2600::1", false, true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    auto a = address::parse(c.in);
    EXPECT_EQ(is_private(a), c.is_private);
    EXPECT_EQ(is_global(a), c.is_global);
  }
}

// An address outside ::ffff:0:0/96 answers as its host prefix does.
TEST(SpecialPurpose, AnAddressAnswersAsItsHostPrefix) {
  for (const auto& block : not_globally_reachable) {
    if (block == ipv4_mapped_block) continue;
    for (auto a : {block.network(), block.last(), block.network().prev(), block.last().next()}) {
      if (!a.is_valid() || ipv4_mapped_block.contains(a)) continue;
      SCOPED_TRACE(a.to_string());
      EXPECT_EQ(is_private(a), is_private(prefix::containing(a, a.width())));
      EXPECT_EQ(is_global(a), is_global(prefix::containing(a, a.width())));
    }
  }
}

}  // namespace
}  // namespace cidrcheck
