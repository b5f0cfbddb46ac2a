// The fleet model's own helpers (include/cidrcheck/fleet/fleet.hpp): how text
// names a connection and its members, an owner's labels by key, and which
// owners a named pool serves.

#include <cidrcheck/fleet/fleet.hpp>

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace cidrcheck {
namespace {

auto fleet_of(std::size_t clusters) -> fleet {
  fleet f;
  for (std::size_t k = 0; k < clusters; ++k) {
    owner o;
    o.name = "c" + std::to_string(k);
    f.owners.push_back(o);
  }
  return f;
}

auto connect(fleet& f, std::size_t members, std::string name = {}) -> std::uint32_t {
  connection c;
  c.name = std::move(name);
  c.via = "mesh";
  for (std::uint32_t k = 0; k < members; ++k) c.members.push_back(k);
  f.connections.push_back(c);
  return static_cast<std::uint32_t>(f.connections.size() - 1);
}

TEST(FleetText, AConnectionOfThreeOrFewerNamesEveryMember) {
  auto f = fleet_of(3);
  EXPECT_EQ(f.describe_members(connect(f, 2)), "c0, c1");
  EXPECT_EQ(f.describe_members(connect(f, 3)), "c0, c1, c2");
}

// A mesh of a thousand clusters is one line, not a thousand names on every
// runbook step that mentions it.
TEST(FleetText, ALargerConnectionNamesThreeAndCountsTheRest) {
  auto f = fleet_of(1000);
  auto mesh = connect(f, 1000, "mesh");
  EXPECT_EQ(f.describe_members(mesh), "c0, c1, c2, ... 997 more");
  EXPECT_EQ(f.describe_members(mesh, 5), "c0, c1, c2, c3, c4, ... 995 more");
  EXPECT_EQ(f.describe_members(connect(f, 5), 5), "c0, c1, c2, c3, c4");
  EXPECT_EQ(f.describe_connection(mesh), "connection mesh");
  EXPECT_EQ(f.describe_connection(connect(f, 5)), "connection [c0, c1, c2, ... 2 more] (mesh)");
}

TEST(FleetText, ALabelIsFoundByItsKey) {
  owner o;
  o.labels = {{"site", "eu"}, {"cloud", "aws"}};
  ASSERT_NE(o.label("cloud"), nullptr);
  EXPECT_EQ(*o.label("cloud"), "aws");
  EXPECT_EQ(o.label("region"), nullptr);
  *o.label("site") = "us";
  EXPECT_EQ(std::as_const(o).label("site")->c_str(), std::string("us"));
}

TEST(FleetText, APoolServesAnOwnerWithEveryLabelItSelects) {
  named_pool p;
  p.selector.labels = {{"site", "eu"}, {"cloud", "aws"}};
  owner o;
  o.name = "prod-eu";
  o.labels = {{"cloud", "aws"}, {"site", "eu"}, {"environment", "prod"}};
  EXPECT_TRUE(pool_serves(p, o, range_role::pods));
  o.labels = {{"cloud", "aws"}, {"site", "us"}};
  EXPECT_FALSE(pool_serves(p, o, range_role::pods));
  o.labels = {{"cloud", "aws"}};
  EXPECT_FALSE(pool_serves(p, o, range_role::pods));
}

}  // namespace
}  // namespace cidrcheck
