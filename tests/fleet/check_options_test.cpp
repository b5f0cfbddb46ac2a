#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/check_options.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/limit_error.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string_view>

namespace cidrcheck {
namespace {

auto load(std::string_view yaml) -> fleet {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "t.yaml");
  auto loaded = loader.finish();
  EXPECT_TRUE(loaded.ok());
  return loaded.value;
}

constexpr std::string_view two_overlapping = "clusters:\n  - {name: a, pods: 10.0.0.0/16}\n  - {name: b, pods: 10.0.0.0/16}\n";

TEST(CheckOptions, MoreFindingsThanMaxFindingsIsALimitErrorAndACidrcheckError) {
  const auto f = load(two_overlapping);
  const auto findings = check(f, builtin_catalog());
  ASSERT_FALSE(findings.empty());
  check_options options;
  options.max_findings = findings.size() - 1;
  try {
    (void)check(f, builtin_catalog(), options);
    FAIL() << "no limit_error";
  } catch (const error& e) {
    const auto* limit = dynamic_cast<const limit_error*>(&e);
    ASSERT_NE(limit, nullptr) << e.what();
    EXPECT_EQ(limit->limit(), "max-findings");
    EXPECT_EQ(limit->value(), options.max_findings);
  }
  EXPECT_THROW((void)check(f, builtin_catalog(), options), std::length_error);
  options.max_findings = findings.size();
  EXPECT_EQ(check(f, builtin_catalog(), options).size(), findings.size());
}

TEST(CheckOptions, WithoutDescribeFindingsCarryNoText) {
  const auto f = load(two_overlapping);
  check_options options;
  options.describe = false;
  const auto lean = check(f, builtin_catalog(), options);
  const auto full = check(f, builtin_catalog());
  ASSERT_EQ(lean.size(), full.size());
  for (std::size_t k = 0; k < lean.size(); ++k) {
    EXPECT_EQ(lean[k].id, full[k].id);
    EXPECT_TRUE(lean[k].message.empty()) << lean[k].message;
    EXPECT_FALSE(full[k].message.empty());
  }
}

}  // namespace
}  // namespace cidrcheck
