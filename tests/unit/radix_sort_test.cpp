#include <cidrcheck/detail/radix_sort.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace {

using cidrcheck::detail::radix_sort;

// Sorts as std::stable_sort does, for small (insertion) and large (counting) inputs alike.
TEST(RadixSort, AgreesWithStableSortAndKeepsEqualKeysInOrder) {
  for (std::size_t n : {0U, 1U, 100U, 255U, 256U, 10'000U}) {
    std::mt19937 random(static_cast<std::uint32_t>(n));
    std::vector<std::pair<std::uint32_t, std::size_t>> items;  // key, original position
    for (std::size_t k = 0; k < n; ++k) items.emplace_back(random() % 5000, k);
    auto want = items;
    std::stable_sort(want.begin(), want.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    radix_sort(items, [](const auto& item) { return item.first; }, 32);
    EXPECT_EQ(items, want) << n << " items";
  }
}

// Keys of 38 bits (an IPv4 network and a length, as the overlap sweep sorts) take three passes of 13 bits.
TEST(RadixSort, SortsWideKeysInEqualDigits) {
  std::mt19937_64 random(38);
  std::vector<std::pair<std::uint64_t, std::size_t>> items;
  for (std::size_t k = 0; k < 20'000; ++k) items.emplace_back(random() >> 26, k);
  auto want = items;
  std::stable_sort(want.begin(), want.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  radix_sort(items, [](const auto& item) { return item.first; }, 38);
  EXPECT_EQ(items, want);
}

TEST(RadixSort, SkipsDigitsEveryKeyShares) {
  // Keys that differ only in their top byte still sort (the lower passes are skipped).
  std::vector<std::uint32_t> items;
  for (std::uint32_t k = 300; k-- > 0;) items.push_back(k << 24);
  radix_sort(items, [](std::uint32_t x) { return x; }, 32);
  EXPECT_TRUE(std::is_sorted(items.begin(), items.end()));
}

}  // namespace
