#include <cidrcheck/fleet/suppression.hpp>

#include <gtest/gtest.h>

#include <string>

namespace cidrcheck {
namespace {


TEST(EntityPattern, ParsesOwnerOrOwnerAndRole) {
  EXPECT_EQ(entity_pattern::parse("prod"), (entity_pattern{"prod", std::nullopt}));
  EXPECT_EQ(entity_pattern::parse("prod/pods"), (entity_pattern{"prod", range_role::pods}));
  EXPECT_EQ(entity_pattern::parse("team/prod/network"), (entity_pattern{"team/prod", range_role::network}));
  EXPECT_FALSE(entity_pattern::parse("prod/pod"));     // not a role
  EXPECT_FALSE(entity_pattern::parse("/pods"));        // no owner
  EXPECT_FALSE(entity_pattern::parse(""));
  EXPECT_EQ(entity_pattern::parse("prod/services")->to_string(), "prod/services");
}

TEST(EntityPattern, ReadsAndWritesEscapedSlashesAsEntityIdsDo) {
  // Network "a/pods" is "a%2Fpods"; "a/pods" stays cluster a's pods.
  EXPECT_EQ(entity_pattern::parse("a%2Fpods"), (entity_pattern{"a/pods", std::nullopt}));
  EXPECT_EQ(entity_pattern::parse("a/pods"), (entity_pattern{"a", range_role::pods}));
  EXPECT_EQ(entity_pattern::parse("team%2Fprod/network"), (entity_pattern{"team/prod", range_role::network}));
  EXPECT_EQ(entity_pattern::parse("100%25"), (entity_pattern{"100%", std::nullopt}));
  EXPECT_EQ((entity_pattern{"a/pods", std::nullopt}).to_string(), "a%2Fpods");
  EXPECT_EQ((entity_pattern{"team/prod", range_role::network}).to_string(), "team%2Fprod/network");
  for (std::string name : {"a/pods", "100%", "a%2Fb", "x/y/z"}) {
    EXPECT_EQ(entity_pattern::parse(escape_entity_name(name))->owner, name);
  }
}

TEST(EntityName, EscapingReadsBack) {
  for (std::string name : {"plain", "a/pods", "100%", "%2F", "a%2Fb/c"}) {
    auto escaped = escape_entity_name(name);
    EXPECT_EQ(escaped.find('/'), std::string::npos) << escaped;  // the '/' before ROLE stays the only one
    EXPECT_EQ(unescape_entity_name(escaped), name);
  }
  EXPECT_EQ(unescape_entity_name("a%2fb"), "a/b");  // either case
  EXPECT_EQ(unescape_entity_name("50%"), "50%");    // a lone '%' stands for itself
}

TEST(EntityPattern, MatchesEveryRangeOfAnOwnerOrOneRole) {
  fleet f;
  f.owners.push_back({});
  f.owners[0].name = "prod";
  fleet_range pods;
  pods.owner = 0;
  pods.role = range_role::pods;
  fleet_range services = pods;
  services.role = range_role::services;
  EXPECT_TRUE(entity_pattern::parse("prod")->matches(f, pods));
  EXPECT_TRUE(entity_pattern::parse("prod/pods")->matches(f, pods));
  EXPECT_FALSE(entity_pattern::parse("prod/pods")->matches(f, services));
  EXPECT_FALSE(entity_pattern::parse("staging")->matches(f, pods));
}

}  // namespace
}  // namespace cidrcheck
