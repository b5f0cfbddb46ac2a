#include <cidrcheck/fmt.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace {

using namespace cidrcheck;

TEST(Fmt, FormatsValuesAsTheirText) {
  EXPECT_EQ(fmt::format("{} {} {}", address::parse("2001:db8::1"), prefix::parse("10.0.0.0/8"),
                        address_range::parse("10.0.0.1-10.0.0.9")),
            "2001:db8::1 10.0.0.0/8 10.0.0.1-10.0.0.9");
}

TEST(Fmt, TakesWidthFillAndAlignmentAsStringsDo) {
  EXPECT_EQ(fmt::format("[{:>12}]", prefix::parse("10.0.0.0/8")), "[  10.0.0.0/8]");
  EXPECT_EQ(fmt::format("[{:*<6}]", address::parse("::1")), "[::1***]");
  // The longest address fills its buffer exactly.
  EXPECT_EQ(fmt::format("{}", address::parse("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")).size(), 39u);
}

}  // namespace
