#include <cidrcheck/detail/huge_pages.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

namespace {

using cidrcheck::detail::advise_huge_pages;
using cidrcheck::detail::huge_page_bytes;
using cidrcheck::detail::huge_vector;

// The advice covers exactly the whole huge pages inside the buffer (the
// addresses are never dereferenced: only their alignment matters here).
TEST(HugePages, AdvisesTheAlignedInteriorOnly) {
  static_assert(huge_page_bytes == 2u << 20);
  const auto* none = static_cast<const char*>(nullptr);
  EXPECT_EQ(advise_huge_pages(none, 8 * huge_page_bytes), 0u);

  std::vector<char> buffer(3 * huge_page_bytes);
  auto start = reinterpret_cast<std::uintptr_t>(buffer.data());
  const char* aligned = buffer.data() + ((huge_page_bytes - start % huge_page_bytes) % huge_page_bytes);
  EXPECT_EQ(advise_huge_pages(aligned, huge_page_bytes), huge_page_bytes);
  EXPECT_EQ(advise_huge_pages(aligned, huge_page_bytes - 1), 0u);
  EXPECT_EQ(advise_huge_pages(aligned + 1, huge_page_bytes), 0u);    // straddles two pages, holds neither
  EXPECT_EQ(advise_huge_pages(aligned - 1, huge_page_bytes + 1), huge_page_bytes);
  EXPECT_EQ(advise_huge_pages(aligned, 0), 0u);
}

// A buffer of a huge page or more starts on a huge-page boundary; a small one
// is an ordinary allocation. Either way the contents survive growth.
TEST(HugePages, LargeBuffersAreAlignedAndKeepTheirContents) {
  huge_vector<std::uint64_t> v(1000);
  std::iota(v.begin(), v.end(), 7);
  v.reserve(2'000'000);
  EXPECT_GE(v.capacity(), 2'000'000u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % huge_page_bytes, 0u);
  ASSERT_EQ(v.size(), 1000u);
  for (std::size_t k = 0; k < v.size(); ++k) ASSERT_EQ(v[k], k + 7);
  v.resize(2'000'000, 1);
  EXPECT_EQ(std::accumulate(v.begin(), v.end(), std::uint64_t{0}), 999u * 1000u / 2 + 7u * 1000u + 1'999'000u);
  v.resize(10);
  v.shrink_to_fit();
  EXPECT_EQ(v[9], 16u);
}

}  // namespace
