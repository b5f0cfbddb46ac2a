#include <cidrcheck/fleet/plan_limits.hpp>

#include <gtest/gtest.h>

#include <string>

namespace cidrcheck {
namespace {

TEST(PlanLimits, CostsFromZeroToTheCeilingAreAccepted) {
  EXPECT_EQ(check_plan_cost("pods", 0).value, 0);
  EXPECT_EQ(check_plan_cost("pods", max_plan_cost).value, 1'000'000);
  EXPECT_EQ(parse_plan_cost("network", "10").value, 10);
}

TEST(PlanLimits, CostsOutsideTheRangeAreRefusedWithOneMessage) {
  auto high = check_plan_cost("services", 2'000'000);
  EXPECT_FALSE(high.value);
  EXPECT_EQ(high.error, "cost of services must be from 0 to 1000000, not 2000000");
  EXPECT_EQ(parse_plan_cost("services", "2000000").error, high.error);
  EXPECT_EQ(check_plan_cost("pods", -1).error, "cost of pods must be from 0 to 1000000, not -1");
  // Past int64: still the range, not a parse failure.
  EXPECT_EQ(parse_plan_cost("pods", "99999999999999999999").error,
            "cost of pods must be from 0 to 1000000, not 99999999999999999999");
}

TEST(PlanLimits, CostsThatAreNoWholeNumberAreRefused) {
  for (auto text : {"", "1.5", "12x", " 3", "three"}) {
    auto c = parse_plan_cost("pods", text);
    EXPECT_FALSE(c.value) << text;
    EXPECT_EQ(c.error, "cost of pods must be a whole number, not '" + std::string(text) + "'");
  }
}

TEST(PlanLimits, HeadroomFromOneToOneHundred) {
  EXPECT_EQ(parse_plan_headroom("1").value, 1.0);
  EXPECT_EQ(parse_plan_headroom("1.25").value, 1.25);
  EXPECT_EQ(parse_plan_headroom("100").value, 100.0);
  for (auto text : {"0.5", "100.5", "nan", "inf", "", "2x", "-3"}) {
    auto h = parse_plan_headroom(text);
    EXPECT_FALSE(h.value) << text;
    EXPECT_EQ(h.error, "headroom must be a number from 1 to 100, not " + std::string(text));
  }
}

TEST(PlanLimits, APinIsAtMostAsLongAsAName) {
  EXPECT_EQ(check_plan_pin("prod-*/pods").value, "prod-*/pods");
  EXPECT_TRUE(check_plan_pin(std::string(1024, '*')).value);
  auto pin = check_plan_pin(std::string(1025, '*'));
  EXPECT_FALSE(pin.value);
  EXPECT_EQ(pin.error, "a pin is at most 1024 bytes long, as a name is, not 1025");
}

}  // namespace
}  // namespace cidrcheck
