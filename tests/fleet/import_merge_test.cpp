// merge_imports() on claims built by hand: the domain rules of merging sources,
// without reading any export (tests/io/import_merge_test.cpp reads real ones).
#include "../../lib/cidrcheck/fleet/import_merge.hpp"

#include <gtest/gtest.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace cidrcheck::detail {
namespace {

auto at(std::string file, std::uint32_t line) -> source_location { return {std::move(file), line, 1}; }

auto ranges(std::initializer_list<std::string_view> cidrs, const std::string& file) -> std::vector<imported_range> {
  std::vector<imported_range> out;
  std::uint32_t line = 1;
  for (auto c : cidrs) out.push_back({prefix::parse(c), at(file, line++), 0, {}});
  return out;
}

struct merged {
  fleet f;
  std::vector<diagnostic> diagnostics;
  merged_imports out;

  auto cidrs(std::string_view owner, range_role role) const -> std::vector<std::string> {
    std::vector<std::string> list;
    auto k = f.find_owner(owner);
    EXPECT_TRUE(k.has_value()) << owner;
    if (!k) return list;
    for (auto r : f.owners[*k].ranges) {
      if (f.ranges[r].role == role) list.push_back(f.ranges[r].cidr.to_string());
    }
    return list;
  }
};

auto merge(std::vector<import_result> imports, merge_limits limits = {100, 100}) -> merged {
  merged m;
  std::unordered_map<std::string, std::uint32_t> index;
  m.out = merge_imports(std::move(imports), m.f, index, limits, m.diagnostics);
  return m;
}

using v = std::vector<std::string>;

TEST(MergeImports, TheFirstExactClaimWinsAndAnotherIsASourceConflict) {
  import_result a, b;
  add_claim(add_owner(a, "c1", owner_kind::cluster, "eks", at("a.json", 1)), range_role::services, claim_kind::exact,
            ranges({"10.100.0.0/16"}, "a.json"));
  add_claim(add_owner(b, "c1", owner_kind::cluster, "", at("b.json", 1)), range_role::services, claim_kind::exact,
            ranges({"172.20.0.0/16"}, "b.json"));
  auto m = merge({a, b});
  EXPECT_EQ(m.cidrs("c1", range_role::services), (v{"10.100.0.0/16"}));
  ASSERT_EQ(m.f.conflicts.size(), 1u);
  EXPECT_EQ(m.f.conflicts[0].other, (std::vector<prefix>{prefix::parse("172.20.0.0/16")}));
  EXPECT_FALSE(m.f.conflicts[0].outside);
  EXPECT_EQ(m.f.conflicts[0].other_where.file, "b.json");
}

TEST(MergeImports, AllocationsAloneStandInMergedAndOutsideOnesConflict) {
  import_result nodes;
  auto& c = add_owner(nodes, "c1", owner_kind::cluster, "", at("nodes.json", 1));
  add_claim(c, range_role::pods, claim_kind::within, ranges({"10.0.1.0/24", "10.0.0.0/24", "10.9.0.0/24"}, "nodes.json"));
  auto alone = merge({nodes});
  EXPECT_EQ(alone.cidrs("c1", range_role::pods), (v{"10.0.0.0/23", "10.9.0.0/24"}));
  EXPECT_TRUE(alone.f.conflicts.empty());

  import_result config;
  add_claim(add_owner(config, "c1", owner_kind::cluster, "", at("config.yaml", 1)), range_role::pods, claim_kind::exact,
            ranges({"10.0.0.0/16"}, "config.yaml"));
  auto both = merge({config, nodes});
  EXPECT_EQ(both.cidrs("c1", range_role::pods), (v{"10.0.0.0/16"}));
  ASSERT_EQ(both.f.conflicts.size(), 1u);
  EXPECT_TRUE(both.f.conflicts[0].outside);
  EXPECT_EQ(both.f.conflicts[0].other, (std::vector<prefix>{prefix::parse("10.9.0.0/24")}));
}

TEST(MergeImports, AMergedRangeKeepsWhereEveryBlockWasRead) {
  import_result subnets;
  auto& vpc = add_owner(subnets, "vpc-1", owner_kind::network, "vpc", at("subnets.json", 1));
  // lines 1 to 4: two adjacent /24s (out of order), a lone /24 apart, a /25 inside the first
  add_claim(vpc, range_role::external, claim_kind::within,
            ranges({"10.0.1.0/24", "10.0.0.0/24", "10.9.0.0/24", "10.0.0.128/25"}, "subnets.json"));
  auto m = merge({subnets});
  ASSERT_EQ(m.cidrs("vpc-1", range_role::external), (v{"10.0.0.0/23", "10.9.0.0/24"}));
  const auto& ranges_of = m.f.owners[*m.f.find_owner("vpc-1")].ranges;
  const auto& merged_range = m.f.ranges[ranges_of[0]];
  EXPECT_EQ(merged_range.where, at("subnets.json", 1));  // the first block read
  EXPECT_EQ(merged_range.merged_from,
            (std::vector<source_location>{at("subnets.json", 1), at("subnets.json", 2), at("subnets.json", 4)}));
  // a range read as one block is no merge
  EXPECT_EQ(m.f.ranges[ranges_of[1]].where, at("subnets.json", 3));
  EXPECT_TRUE(m.f.ranges[ranges_of[1]].merged_from.empty());
}

TEST(MergeImports, TheFirstSourceToSayWhereAClusterRunsWins) {
  import_result eks, other;
  auto& c = add_owner(eks, "c1", owner_kind::cluster, "eks", at("eks.json", 1));
  set_runs_in(c, "vpc-1", at("eks.json", 5));
  set_runs_in(add_owner(other, "c1", owner_kind::cluster, "", at("tf.json", 1)), "vpc-2", at("tf.json", 9));
  auto m = merge({eks, other});
  const auto& merged_cluster = m.f.owners[*m.f.find_owner("c1")];
  EXPECT_EQ(merged_cluster.runs_in, "vpc-1");
  EXPECT_EQ(merged_cluster.runs_in_where, at("eks.json", 5));
  ASSERT_EQ(m.diagnostics.size(), 1u);
  EXPECT_EQ(m.diagnostics[0].message,
            "sources disagree on the network (runs_in) of cluster c1: vpc-1 here, vpc-2 in tf.json:9:1; cidrcheck uses "
            "the first");
}

TEST(MergeImports, AClusterTakesTheRangesOfTheOwnerItLinks) {
  import_result vpcs, clusters;
  add_claim(add_owner(vpcs, "vpc-1", owner_kind::network, "vpc", at("vpcs.json", 1)), range_role::external,
            claim_kind::exact, ranges({"192.168.0.0/16"}, "vpcs.json"));
  auto& c = add_owner(clusters, "c1", owner_kind::cluster, "eks", at("eks.json", 1));
  c.links.push_back({"vpc-1", "VPC", at("eks.json", 5), {}});
  auto m = merge({vpcs, clusters});
  EXPECT_EQ(m.cidrs("c1", range_role::network), (v{"192.168.0.0/16"}));
  EXPECT_FALSE(m.f.find_owner("vpc-1").has_value());  // nothing left of its own
  EXPECT_EQ(m.out.moved_to.at("vpc-1"), (v{"c1"}));
}

TEST(MergeImports, AnUnresolvedLinkNamesTheClusterAsMessagesDo) {
  import_result clusters;
  add_owner(clusters, "c1", owner_kind::cluster, "eks", at("eks.json", 1)).links.push_back({"vpc-9", "VPC", at("eks.json", 5), {}});
  auto m = merge({clusters});
  ASSERT_EQ(m.diagnostics.size(), 1u);
  EXPECT_EQ(m.diagnostics[0].message,
            "cluster c1 is in VPC vpc-9, which no source describes: its VPC's ranges are unknown (import them too; see "
            "docs/import.md)");
  EXPECT_EQ(m.diagnostics[0].where, at("eks.json", 5));
}

TEST(MergeImports, OwnersPastTheLimitAreAnErrorAndLeftOut) {
  import_result a;
  for (auto name : {"c1", "c2", "c3"}) {
    add_claim(add_owner(a, name, owner_kind::cluster, "", at("a.json", 1)), range_role::pods, claim_kind::exact,
              ranges({"10.0.0.0/16"}, "a.json"));
  }
  auto m = merge({a}, {2, 100});
  EXPECT_EQ(m.f.owners.size(), 2u);
  ASSERT_EQ(m.diagnostics.size(), 1u);
  EXPECT_EQ(m.diagnostics[0].code, "limit");
  EXPECT_EQ(m.diagnostics[0].level, severity::error);
}

}  // namespace
}  // namespace cidrcheck::detail
