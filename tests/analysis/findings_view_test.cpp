#include <cidrcheck/findings_view.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using cidrcheck::finding;
using cidrcheck::findings_view;
using cidrcheck::severity;

auto three_findings() -> std::vector<finding> {
  std::vector<finding> out(3);
  out[0].message = "first";
  out[1].message = "second";
  out[1].level = severity::warning;
  out[2].message = "third";
  out[2].level = severity::note;
  return out;
}

TEST(FindingsView, EveryFindingInOrderWithItsFingerprint) {
  const auto findings = three_findings();
  const std::vector<std::string> prints{"a", "b", "c"};
  const findings_view all(findings, prints);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_FALSE(all.empty());
  for (std::size_t k = 0; k < all.size(); ++k) {
    EXPECT_EQ(&all.stored(k), &findings[k]);  // a view, not a copy
    EXPECT_EQ(all[k].message, findings[k].message);
    EXPECT_EQ(all.fingerprint(k), prints[k]);
    EXPECT_EQ(all.index(k), k);
  }
}

TEST(FindingsView, TheFindingsAtIndexesInTheIndexesOrder) {
  const auto findings = three_findings();
  const std::vector<std::string> prints{"a", "b", "c"};
  const std::vector<std::uint32_t> at{2, 0};
  const findings_view some(findings, prints, at);
  ASSERT_EQ(some.size(), 2u);
  EXPECT_EQ(some[0].message, "third");
  EXPECT_EQ(some.fingerprint(0), "c");
  EXPECT_EQ(some.index(0), 2u);
  EXPECT_EQ(some[1].message, "first");
  EXPECT_EQ(some.fingerprint(1), "a");
  std::vector<std::string> seen;
  for (const auto& x : some) seen.push_back(x.message);
  EXPECT_EQ(seen, (std::vector<std::string>{"third", "first"}));
  EXPECT_EQ(std::count_if(some.begin(), some.end(), [](const finding& x) { return x.level == severity::note; }), 1);
}

TEST(FindingsView, NoIndexesShowNothingAndADefaultViewIsEmpty) {
  const auto findings = three_findings();
  const std::vector<std::string> prints{"a", "b", "c"};
  const findings_view none(findings, prints, std::span<const std::uint32_t>{});
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.begin(), none.end());
  EXPECT_TRUE(findings_view{}.empty());
}

}  // namespace
