#include <cidrcheck/address_map.hpp>
#include <cidrcheck/iostream.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cidrcheck {
namespace {

auto P(std::string_view s) { return prefix::parse(s); }
auto A(std::string_view s) { return address::parse(s); }
auto R(std::string_view s) { return address_range::parse(s); }

using owners = std::set<std::string>;

TEST(AddressMap, KeepsWhichOwnersCoverEachPiece) {
  address_map<owners> m;
  m.add(P("10.0.0.0/8"), {"vpc"});
  m.add(P("10.1.0.0/16"), {"pods"});
  m.add(P("10.1.0.0/16"), {"office"});
  m.add(P("::/0"), {"v6"});
  auto pieces = m.pieces();
  ASSERT_EQ(pieces.size(), 4u);
  EXPECT_EQ(pieces[0], std::make_pair(R("10.0.0.0-10.0.255.255"), owners{"vpc"}));
  EXPECT_EQ(pieces[1], std::make_pair(R("10.1.0.0-10.1.255.255"), (owners{"office", "pods", "vpc"})));
  EXPECT_EQ(pieces[2], std::make_pair(R("10.2.0.0-10.255.255.255"), owners{"vpc"}));
  EXPECT_EQ(pieces[3].second, owners{"v6"});
  ASSERT_NE(m.find(A("10.1.2.3")), nullptr);
  EXPECT_EQ(m.find(A("10.1.2.3"))->size(), 3u);
  EXPECT_EQ(m.find(A("11.0.0.0")), nullptr);
}

TEST(AddressMap, JoinsNeighboursWithEqualValuesButNeverAcrossFamilies) {
  address_map<owners> m;
  m.add(P("10.0.0.0/24"), {"a"});
  m.add(P("10.0.1.0/24"), {"a"});
  m.add(P("255.255.255.255/32"), {"a"});
  m.add(P("::/128"), {"a"});
  EXPECT_EQ(m.piece_count(), 3u);
}

TEST(AddressMap, ClipsPiecesToAWindow) {
  address_map<owners> m;
  m.add(P("10.0.0.0/8"), {"vpc"});
  m.add(P("10.1.0.0/16"), {"pods"});
  std::vector<std::pair<address_range, owners>> seen;
  m.for_each_in(R("10.0.255.0-10.1.0.255"), [&](const address_range& r, const owners& o) { seen.emplace_back(r, o); });
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].first, R("10.0.255.0-10.0.255.255"));
  EXPECT_EQ(seen[1].first, R("10.1.0.0-10.1.0.255"));
  EXPECT_EQ(seen[1].second, (owners{"pods", "vpc"}));
}

TEST(AddressMap, AggregatesCountsOverTheWholeSpace) {
  address_map<int> m;
  m.add(P("0.0.0.0/0"), 1);
  m.add(P("255.255.255.255/32"), 2);
  m.add(P("::/0"), 5);
  auto pieces = m.pieces();
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[1], std::make_pair(R("255.255.255.255-255.255.255.255"), 3));
  EXPECT_EQ(pieces[2].first, address_range(P("::/0")));
}

}  // namespace
}  // namespace cidrcheck
