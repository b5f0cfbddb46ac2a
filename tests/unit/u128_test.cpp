#include <cidrcheck/detail/u128.hpp>

#include <gtest/gtest.h>

namespace {

using cidrcheck::uint128;

static_assert(sizeof(uint128) == 16);
static_assert(cidrcheck::detail::uint128_max + 1 == 0);

TEST(U128, DecimalTextOfEdgeValues) {
  using cidrcheck::to_decimal;
  EXPECT_EQ(to_decimal(0), "0");
  EXPECT_EQ(to_decimal(4'294'967'296), "4294967296");                            // 2^32, all of IPv4
  EXPECT_EQ(to_decimal(uint128{1} << 64), "18446744073709551616");                // 2^64, a /64
  EXPECT_EQ(to_decimal(cidrcheck::detail::uint128_max), "340282366920938463463374607431768211455");  // 2^128 - 1
}

}  // namespace
