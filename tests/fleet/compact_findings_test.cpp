// check()'s findings held as compact records (lib/cidrcheck/fleet/compact_findings.hpp):
// on random meshes, each record reads as check()'s finding at its index, a
// described conflict says what check() says, and triage of the records keeps
// what triage() keeps, in its order, with its severities.

#include "../../lib/cidrcheck/fleet/compact_findings.hpp"
#include "../unit/random.hpp"

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/triage.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

namespace cidrcheck {
namespace {

// A mesh of clusters and networks in a small universe, so that every overlap
// rule and some per-range rules (public range, pod capacity) fire.
auto random_yaml(test::random_source& rng) -> std::string {
  auto block = [&](int length) {
    return prefix::containing(address::v4(0x0a000000u + (rng() % 0x400u) * 0x100u), length).to_string();
  };
  std::string out = "clusters:\n";
  auto clusters = 2 + rng() % 6;
  for (unsigned k = 0; k < clusters; ++k) {
    out += "  - {name: c" + std::to_string(k) + ", pods: " + block(18 + static_cast<int>(rng() % 4)) +
           ", services: " + block(20 + static_cast<int>(rng() % 4)) + ", nodes: " + std::to_string(rng() % 300) + "}\n";
  }
  auto networks = rng() % 3;
  if (networks > 0) out += "networks:\n";
  for (unsigned k = 0; k < networks; ++k) out += "  - {name: n" + std::to_string(k) + ", cidrs: [" + block(16) + "]}\n";
  auto connections = rng() % 4;
  if (connections > 0) out += "connections:\n";
  for (unsigned c = 0; c < connections; ++c) {
    auto a = rng() % clusters, b = (a + 1 + rng() % (clusters - 1)) % clusters;
    out += "  - [c" + std::to_string(a) + ", c" + std::to_string(b) +
           (networks > 0 ? ", n" + std::to_string(rng() % networks) : std::string()) + "]\n";
  }
  return out;
}

auto load(const std::string& yaml) -> fleet_load_result {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "mesh.yaml");
  return loader.finish();
}

auto fields(const finding& x) {
  return std::tie(x.id, x.level, x.ranges, x.overlap, x.routed_at, x.via, x.where, x.end_column);
}

auto is_conflict(rule id) -> bool {
  return id == rule::overlap || id == rule::overlap_internal || id == rule::latent_overlap;
}

TEST(CompactFindings, EachRecordReadsAsCheckFindingAtItsIndex) {
  test::random_source rng(28);
  std::size_t conflicts = 0;
  for (int round = 0; round < 300; ++round) {
    auto yaml = random_yaml(rng);
    auto loaded = load(yaml);
    ASSERT_TRUE(loaded.ok()) << yaml << (loaded.diagnostics.empty() ? "" : format_diagnostic(loaded.diagnostics[0]));
    const fleet& f = loaded.value;
    const auto described = check(f, builtin_catalog());
    auto compact = detail::check_compact(f, builtin_catalog(), {});
    ASSERT_EQ(compact.size(), described.size()) << yaml;
    std::vector<std::uint32_t> all;
    for (std::uint32_t k = 0; k < compact.size(); ++k) {
      const auto& x = described[k];
      EXPECT_EQ(compact.id(k), x.id) << yaml;
      EXPECT_EQ(compact.level(k), x.level) << yaml;
      EXPECT_EQ(std::vector<std::uint32_t>(compact.ranges(k).begin(), compact.ranges(k).end()), x.ranges) << yaml;
      EXPECT_TRUE(fields(compact.materialize(f, k)) == fields(x)) << x.message;
      // A conflict has no text until described; every other finding has check()'s.
      EXPECT_EQ(compact.message(k), is_conflict(x.id) ? std::string() : x.message) << yaml;
      conflicts += is_conflict(x.id) ? 1 : 0;
      all.push_back(k);
    }
    compact.describe(f, builtin_catalog(), all);
    for (std::uint32_t k = 0; k < compact.size(); ++k) EXPECT_EQ(compact.message(k), described[k].message) << yaml;
  }
  EXPECT_GT(conflicts, 300u);  // the meshes exercise the records, not only whole findings
}

TEST(CompactFindings, TriageKeepsWhatTriageKeeps) {
  test::random_source rng(16);
  for (int round = 0; round < 300; ++round) {
    auto yaml = random_yaml(rng);
    auto loaded = load(yaml);
    ASSERT_TRUE(loaded.ok()) << yaml << (loaded.diagnostics.empty() ? "" : format_diagnostic(loaded.diagnostics[0]));
    const fleet& f = loaded.value;
    // A suppression of one owner's overlaps, one that expired, one of nobody; a rule turned off, one lowered.
    auto owner = "c" + std::to_string(rng() % 2);
    triage_options options;
    options.today = calendar_date{2026, 11, 28};
    options.suppressions.push_back({rule::overlap, {*entity_pattern::parse(owner)}, "accepted", std::nullopt, {}, 0});
    options.suppressions.push_back(
        {rule::latent_overlap, {*entity_pattern::parse("c2")}, "old", calendar_date{2026, 1, 1}, {}, 0});
    options.suppressions.push_back(
        {rule::overlap_internal, {*entity_pattern::parse("nobody")}, "gone", std::nullopt, {}, 0});
    options.overrides.push_back({rule::public_range, std::nullopt});
    options.overrides.push_back({rule::latent_overlap, severity::note});
    const auto expected = triage(f, check(f, builtin_catalog()), options).findings;
    auto compact = detail::check_compact(f, builtin_catalog(), {});
    compact.triage(f, options);
    ASSERT_EQ(compact.size(), expected.size()) << yaml;
    for (std::uint32_t k = 0; k < compact.size(); ++k) {
      EXPECT_TRUE(fields(compact.materialize(f, k)) == fields(expected[k])) << expected[k].message;
      EXPECT_EQ(compact.level(k), expected[k].level) << yaml;
    }
  }
}

}  // namespace
}  // namespace cidrcheck
