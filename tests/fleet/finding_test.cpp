#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/finding.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>

namespace cidrcheck {
namespace {

struct checked {
  fleet f;
  finding overlap;
};

auto overlap_of(std::string_view yaml) -> checked {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "f.yaml");
  auto loaded = loader.finish();
  EXPECT_TRUE(loaded.ok());
  auto found = check(loaded.value, builtin_catalog());
  auto it = std::find_if(found.begin(), found.end(), [](const finding& f) { return f.id == rule::overlap; });
  EXPECT_NE(it, found.end());
  return {loaded.value, it == found.end() ? finding{} : *it};
}

TEST(Finding, DefaultsToAnErrorOfNoRanges) {
  const finding f;
  EXPECT_EQ(f.id, rule::overlap);
  EXPECT_EQ(f.level, severity::error);
  EXPECT_TRUE(f.ranges.empty());
  EXPECT_FALSE(f.overlap.has_value());
  EXPECT_EQ(f.block, nullptr);
}

TEST(Finding, ACopySharesItsCatalogBlock) {
  fleet_loader loader(builtin_catalog());
  loader.add_text("clusters:\n  - {name: a, pods: [127.1.0.0/16]}\n", "f.yaml");
  auto loaded = loader.finish();
  ASSERT_TRUE(loaded.ok());
  auto found = check(loaded.value, builtin_catalog());
  auto it = std::find_if(found.begin(), found.end(), [](const finding& f) { return f.id == rule::reserved_range; });
  ASSERT_NE(it, found.end());
  ASSERT_NE(it->block, nullptr);
  EXPECT_EQ(it->block->cidr.to_string(), "127.0.0.0/8");
  const finding copy = *it;
  EXPECT_EQ(copy.block.get(), it->block.get());
}

TEST(Finding, AnOverlapNamesTheCheaperRangeToMoveFirstAndTheSharedAddresses) {
  // b's services (cheaper to move) overlap a's network.
  auto [fl, f] = overlap_of(R"(
clusters:
  - {name: a, network: 10.0.0.0/16, pods: 10.100.0.0/16, services: 10.200.0.0/16}
  - {name: b, network: 10.50.0.0/16, pods: 10.60.0.0/16, services: 10.0.128.0/20}
connections: [[a, b]]
)");
  ASSERT_EQ(f.ranges.size(), 2u);
  ASSERT_TRUE(f.overlap.has_value());
  EXPECT_EQ(f.overlap->to_string(), "10.0.128.0-10.0.143.255");
  const auto& first = fl.ranges[f.ranges[0]];
  EXPECT_EQ(fl.owners[first.owner].name, "b");
  EXPECT_EQ(first.role, range_role::services);
  EXPECT_EQ(fl.owners[fl.ranges[f.ranges[1]].owner].name, "a");
  EXPECT_EQ(f.where, source_location{});  // a finding with ranges points at its first range instead
  EXPECT_FALSE(f.message.empty());
  EXPECT_FALSE(f.hint.empty());
}

}  // namespace
}  // namespace cidrcheck
