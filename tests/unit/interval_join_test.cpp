#include <cidrcheck/detail/interval_join.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace {

using cidrcheck::uint128;
using cidrcheck::detail::sort_and_join;

TEST(SortAndJoin, JoinsOverlappingAndTouchingRangesLeavesGaps) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> v{{20, 30}, {0, 9}, {10, 12}, {5, 7}, {40, 50}, {31, 31}};
  sort_and_join(v);
  // [0,9] and [10,12] touch; [20,30] and [31,31] touch; 39 is a gap.
  EXPECT_EQ(v, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 12}, {20, 31}, {40, 50}}));
}

TEST(SortAndJoin, HandlesTheTopOfTheSpace) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> v{{0xffffff00, 0xffffffff}, {0, 0}, {0xfffffff0, 0xffffffff}};
  sort_and_join(v);  // no "one past the end" of 255.255.255.255 to overflow into 0
  EXPECT_EQ(v, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 0}, {0xffffff00, 0xffffffff}}));
}

TEST(SortAndJoin, SortsIpv6AndLargeIpv4Inputs) {
  std::vector<std::pair<uint128, uint128>> v6{{uint128{1} << 64, (uint128{1} << 64) + 5}, {0, 3}, {4, 4}};
  sort_and_join(v6);
  EXPECT_EQ(v6, (std::vector<std::pair<uint128, uint128>>{{0, 4}, {uint128{1} << 64, (uint128{1} << 64) + 5}}));
  std::vector<std::pair<std::uint32_t, std::uint32_t>> v4;  // past the radix sort's insertion-sort cut-off
  for (std::uint32_t k = 1000; k-- > 0;) v4.emplace_back(k * 4, k * 4 + 1);
  sort_and_join(v4);
  ASSERT_EQ(v4.size(), 1000U);
  EXPECT_EQ(v4.front(), (std::pair<std::uint32_t, std::uint32_t>{0, 1}));
  EXPECT_EQ(v4.back(), (std::pair<std::uint32_t, std::uint32_t>{3996, 3997}));
}

TEST(SortAndJoin, LeavesAnEmptyListEmpty) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> v;
  sort_and_join(v);
  EXPECT_TRUE(v.empty());
}

}  // namespace
