#include <cidrcheck/detail/family.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace {

using cidrcheck::uint128;
using namespace cidrcheck::detail;

static_assert(width_of<std::uint32_t> == 32 && width_of<uint128> == 128);
static_assert(host_mask<std::uint32_t>(24) == 0xffU && network_mask<std::uint32_t>(24) == 0xffffff00U);
static_assert(host_mask<std::uint32_t>(0) == 0xffffffffU && host_mask<std::uint32_t>(32) == 0);  // the edges
static_assert(network_mask<uint128>(128) == ~uint128{0} && network_mask<uint128>(0) == 0);
static_assert(trailing_zeros<std::uint32_t>(0) == 32 && trailing_zeros<uint128>(0) == 128);  // zero: the width
static_assert(trailing_zeros<uint128>(uint128{1} << 100) == 100 && leading_zeros<uint128>(uint128{1} << 100) == 27);

TEST(Family, LargestBlockIsBoundByAlignmentAndSpan) {
  EXPECT_EQ(largest_block_length<std::uint32_t>(0x0a000000, 0x0affffff), 8);   // 10.0.0.0-10.255.255.255: a /8
  EXPECT_EQ(largest_block_length<std::uint32_t>(0x0a000001, 0x0affffff), 32);  // unaligned start: one address
  EXPECT_EQ(largest_block_length<std::uint32_t>(0x0a000000, 0x0a000002), 31);  // span of 3: a /31 first
  EXPECT_EQ(largest_block_length<std::uint32_t>(0, 0xffffffff), 0);            // all of IPv4
  EXPECT_EQ(largest_block_length<uint128>(0, ~uint128{0}), 0);                 // all of IPv6 (span overflows)
}

TEST(Family, ForEachBlockGivesTheMinimalCoverInOrder) {
  std::vector<std::pair<std::uint32_t, int>> blocks;
  for_each_block<std::uint32_t>(1, 6, [&](std::uint32_t start, int length) { blocks.emplace_back(start, length); });
  EXPECT_EQ(blocks, (std::vector<std::pair<std::uint32_t, int>>{{1, 32}, {2, 31}, {4, 31}, {6, 32}}));
  blocks.clear();
  // Up to the last address, which has no successor.
  for_each_block<std::uint32_t>(0xfffffffe, 0xffffffff, [&](std::uint32_t s, int l) { blocks.emplace_back(s, l); });
  EXPECT_EQ(blocks, (std::vector<std::pair<std::uint32_t, int>>{{0xfffffffe, 31}}));
}

}  // namespace
