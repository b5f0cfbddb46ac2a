#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <gtest/gtest.h>

#include <string>

namespace cidrcheck {
namespace {

TEST(Catalog, TheShippedCatalogParsesAndCitesEverySource) {
  const auto& c = builtin_catalog();
  EXPECT_GE(c.distributions.size(), 15u);
  for (const auto& d : c.distributions) EXPECT_FALSE(d.source.empty()) << d.name;
  for (const auto& t : c.network_types) EXPECT_FALSE(t.source.empty()) << t.name;
  for (const auto& b : c.blocks) {
    EXPECT_FALSE(b.source.empty()) << b.cidr.to_string();
    EXPECT_TRUE(find_rule(b.rule).has_value()) << b.rule;
  }
  ASSERT_NE(c.find_network_type("tailscale"), nullptr);
  EXPECT_EQ(c.find_network_type("tailscale")->cidrs.front(), prefix::parse("100.64.0.0/10"));
  ASSERT_NE(c.find_distribution("kops"), nullptr);
  EXPECT_EQ(c.find_distribution("kops")->pods.front(), prefix::parse("100.96.0.0/11"));
}

}  // namespace
}  // namespace cidrcheck
