#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {
namespace {

struct checked {
  fleet_load_result loaded;
  std::vector<finding> findings;
  std::vector<std::string> prints;
};

auto run(std::string_view yaml) -> checked {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "t.yaml");
  checked c{loader.finish(), {}, {}};
  EXPECT_TRUE(c.loaded.ok());
  c.findings = check(c.loaded.value, builtin_catalog());
  c.prints = fingerprints(c.loaded.value, c.findings);
  return c;
}

auto sorted(std::vector<std::string> v) -> std::vector<std::string> {
  std::sort(v.begin(), v.end());
  return v;
}

constexpr std::string_view two_clusters = R"(
clusters:
  - {name: a, pods: 10.77.0.0/16}
  - {name: b, pods: 10.77.0.0/16}
connections: [[a, b]]
)";

TEST(Fingerprint, IsSixtyFourHexDigits) {
  auto c = run(two_clusters);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.prints[0].size(), 64u);
  EXPECT_EQ(c.prints[0].find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(c.prints[0], fingerprint(c.loaded.value, c.findings[0]));
}

TEST(Fingerprint, SurvivesEditsThatMoveTheText) {
  // Other owners first, comments, another order of the two clusters: the same findings.
  auto moved = run(R"(
# a comment that shifts every line
clusters:
  - {name: c, pods: 10.79.0.0/16}
  - name: b
    pods: 10.77.0.0/16
  - name: a
    pods: 10.77.0.0/16
connections:
  - [b, a]
)");
  EXPECT_EQ(sorted(run(two_clusters).prints), sorted(moved.prints));
}

TEST(Fingerprint, ChangesWithTheRuleTheEntitiesOrTheCidrs) {
  auto base = run(two_clusters).prints;
  auto other_cidr = run(R"(
clusters:
  - {name: a, pods: 10.77.0.0/16}
  - {name: b, pods: 10.77.0.0/17}
connections: [[a, b]]
)").prints;
  auto other_role = run(R"(
clusters:
  - {name: a, pods: 10.77.0.0/16}
  - {name: b, pods: [], services: 10.77.0.0/16}
connections: [[a, b]]
)").prints;
  auto other_owner = run(R"(
clusters:
  - {name: a, pods: 10.77.0.0/16}
  - {name: c, pods: 10.77.0.0/16}
connections: [[a, c]]
)").prints;
  auto latent = run(R"(
clusters:
  - {name: a, pods: 10.77.0.0/16}
  - {name: b, pods: 10.77.0.0/16}
)").prints;
  for (const auto* other : {&other_cidr, &other_role, &other_owner, &latent}) {
    ASSERT_EQ(other->size(), 1u);
    EXPECT_NE((*other)[0], base[0]);
  }
}

TEST(Fingerprint, TakesTheCatalogBlockIntoAccount) {
  // One range in three blocks of one rule (multicast, 240/4, broadcast): three findings, three fingerprints.
  auto c = run("clusters:\n  - {name: a, pods: [224.0.0.0/3]}\n");
  std::vector<std::string> reserved;
  for (std::size_t k = 0; k < c.findings.size(); ++k) {
    if (c.findings[k].id == rule::reserved_range) reserved.push_back(c.prints[k]);
  }
  ASSERT_EQ(reserved.size(), 3u);
  EXPECT_EQ(std::set<std::string>(reserved.begin(), reserved.end()).size(), 3u);
  for (const auto& p : reserved) EXPECT_EQ(p.size(), 64u);  // distinct without a ":2" suffix
}

TEST(Fingerprint, RepeatsAreNumberedToStayUnique) {
  // A range listed twice overlaps the other cluster twice, identically.
  auto c = run(R"(
clusters:
  - {name: a, pods: [10.77.0.0/16, 10.77.0.0/16]}
  - {name: b, pods: 10.77.0.0/16}
connections: [[a, b]]
)");
  std::vector<std::string> overlaps;
  for (std::size_t k = 0; k < c.findings.size(); ++k) {
    if (c.findings[k].id == rule::overlap) overlaps.push_back(c.prints[k]);
  }
  ASSERT_EQ(overlaps.size(), 2u);
  EXPECT_EQ(overlaps[1], overlaps[0] + ":2");
}

TEST(Fingerprint, EachRepeatIsNumberedInListOrderAmongOthers) {
  // Findings without ranges are told apart by rule and message: x, y, x, x, y.
  std::vector<finding> findings(5);
  for (std::size_t k = 0; k < findings.size(); ++k) {
    findings[k].id = rule::expired_suppression;
    findings[k].message = (k == 1 || k == 4) ? "y" : "x";
  }
  const fleet empty;
  const auto prints = fingerprints(empty, findings);
  const auto x = fingerprint(empty, findings[0]);
  const auto y = fingerprint(empty, findings[1]);
  EXPECT_EQ(prints, (std::vector<std::string>{x, y, x + ":2", x + ":3", y + ":2"}));
}

TEST(Fingerprint, EntityIdsNameOwnerAndRole) {
  auto c = run(R"(
networks:
  - {name: office, cidrs: 10.1.0.0/16}
clusters:
  - {name: a, network: 10.2.0.0/16, pods: 10.3.0.0/16, services: 10.4.0.0/16}
)");
  std::vector<std::string> ids;
  for (const auto& r : c.loaded.value.ranges) ids.push_back(entity_id(c.loaded.value, r));
  EXPECT_EQ(ids, (std::vector<std::string>{"office", "a/network", "a/pods", "a/services"}));
}

// A '/' in a name cannot make a network's entity id a cluster role's: network
// "a/pods" overlapping what cluster a's pods overlap is another finding, with
// another fingerprint, so neither diff nor --baseline can hide one behind the other.
TEST(Fingerprint, OwnersWithASlashNeverShareAFingerprintWithAClusterRole) {
  auto cluster = run(R"(
clusters:
  - {name: a, pods: 10.77.0.0/16}
  - {name: b, pods: 10.77.0.0/16}
connections: [[a, b]]
)");
  auto network = run(R"(
networks:
  - {name: a/pods, cidrs: 10.77.0.0/16}
clusters:
  - {name: b, pods: 10.77.0.0/16}
connections: [[a/pods, b]]
)");
  ASSERT_EQ(cluster.prints.size(), 1u);
  ASSERT_EQ(network.prints.size(), 1u);
  EXPECT_EQ(cluster.findings[0].id, network.findings[0].id);
  EXPECT_NE(cluster.prints[0], network.prints[0]);
  const auto& f = network.loaded.value;
  EXPECT_EQ(entity_id(f, f.ranges[0]), "a%2Fpods");
  // '%' is escaped too, so an escaped-looking name stays distinct from the escape.
  auto percent = run(R"(
networks:
  - {name: a%2Fpods, cidrs: 10.77.0.0/16}
clusters:
  - {name: b, pods: 10.77.0.0/16}
connections: [[a%2Fpods, b]]
)");
  EXPECT_EQ(entity_id(percent.loaded.value, percent.loaded.value.ranges[0]), "a%252Fpods");
  EXPECT_NE(percent.prints[0], network.prints[0]);
  EXPECT_NE(percent.prints[0], cluster.prints[0]);
}

}  // namespace
}  // namespace cidrcheck
