#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/triage.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {
namespace {


constexpr std::string_view mesh = R"(
clusters:
  - {name: a, pods: 10.77.0.0/16, services: 10.78.0.0/16}
  - {name: b, pods: 10.77.0.0/16, services: 10.78.0.0/16}
  - {name: c, pods: 10.77.0.0/16}
connections: [[a, b, c]]
)";

struct fixture {
  fleet_load_result loaded;
  std::vector<finding> findings;

  explicit fixture(std::string_view yaml) {
    fleet_loader loader(builtin_catalog());
    loader.add_text(yaml, "t.yaml");
    loaded = loader.finish();
    EXPECT_TRUE(loaded.ok());
    findings = check(loaded.value, builtin_catalog());
  }
  auto run(std::vector<suppression> s, std::vector<rule_override> o = {},
           calendar_date today = calendar_date{2025, 6, 30}) const -> triage_result {
    return triage(loaded.value, findings, {o, s, today});
  }
  auto count(const triage_result& t, rule r) const -> std::size_t {
    return static_cast<std::size_t>(
        std::count_if(t.findings.begin(), t.findings.end(), [&](const finding& x) { return x.id == r; }));
  }
};

auto suppress(rule id, std::vector<std::string_view> entities, std::optional<calendar_date> expires = {})
    -> suppression {
  suppression s;
  s.id = id;
  for (auto e : entities) s.entities.push_back(*entity_pattern::parse(e));
  s.reason = "because";
  s.expires = expires;
  s.where = {"c.yaml", 7, 11};
  return s;
}

TEST(Triage, ASuppressionHidesTheFindingWhoseEntitiesItNames) {
  fixture f(mesh);
  auto t = f.run({suppress(rule::overlap, {"a/pods", "b/pods"})});
  ASSERT_EQ(t.suppressed.size(), 1u);
  EXPECT_EQ(t.suppressed[0].suppression, 0u);
  EXPECT_EQ(f.count(t, rule::overlap), f.findings.size() - 1 - 0);  // every other finding is an overlap
  EXPECT_EQ(f.count(t, rule::unused_suppression), 0u);
}

TEST(Triage, MatchesExactlyTheEntitiesNeverMoreOrFewer) {
  fixture f(mesh);
  // An owner names all its ranges: a and b overlap in pods and in services.
  EXPECT_EQ(f.run({suppress(rule::overlap, {"a", "b"})}).suppressed.size(), 2u);
  // One side alone matches no two-sided finding; a third entity matches none either.
  EXPECT_EQ(f.run({suppress(rule::overlap, {"a/pods"})}).suppressed.size(), 0u);
  EXPECT_EQ(f.run({suppress(rule::overlap, {"a/pods", "b/pods", "c/pods"})}).suppressed.size(), 0u);
  // Another rule, another role: nothing.
  EXPECT_EQ(f.run({suppress(rule::latent_overlap, {"a/pods", "b/pods"})}).suppressed.size(), 0u);
  EXPECT_EQ(f.run({suppress(rule::overlap, {"a/network", "b/pods"})}).suppressed.size(), 0u);
}

TEST(Triage, AnExpiredSuppressionHidesNothingAndIsReported) {
  fixture f(mesh);
  auto on_the_day = f.run({suppress(rule::overlap, {"a/pods", "b/pods"}, calendar_date{2025, 6, 30})});
  EXPECT_EQ(on_the_day.suppressed.size(), 1u);  // applies through its expiry day
  auto day_after = f.run({suppress(rule::overlap, {"a/pods", "b/pods"}, calendar_date{2025, 6, 29})});
  EXPECT_EQ(day_after.suppressed.size(), 0u);
  EXPECT_EQ(f.count(day_after, rule::overlap), f.count(f.run({}), rule::overlap));
  ASSERT_EQ(f.count(day_after, rule::expired_suppression), 1u);
  const auto& x = day_after.findings.back();
  EXPECT_EQ(x.level, severity::warning);
  EXPECT_TRUE(x.ranges.empty());
  EXPECT_EQ(x.where, (source_location{"c.yaml", 7, 11}));
  EXPECT_EQ(x.message, "suppression of overlap for a/pods, b/pods expired on 2025-06-29; what it hid is reported again");
}

TEST(Triage, AnUnusedSuppressionIsANoteThatSuggestsTheOwner) {
  fixture f(mesh);
  auto t = f.run({suppress(rule::overlap, {"a/pods", "bb/pods"})});
  ASSERT_EQ(f.count(t, rule::unused_suppression), 1u);
  EXPECT_EQ(t.findings.back().level, severity::note);
  EXPECT_EQ(t.findings.back().message,
            "suppression of overlap for a/pods, bb/pods matches no finding; no cluster or network is named 'bb' (did "
            "you mean 'b'?)");
}

TEST(Triage, TheFirstLiveSuppressionWins) {
  fixture f(mesh);
  auto t = f.run({suppress(rule::overlap, {"a/pods", "b/pods"}, calendar_date{2020, 1, 1}),
                  suppress(rule::overlap, {"a/pods", "b/pods"}), suppress(rule::overlap, {"a", "b"})});
  ASSERT_EQ(t.suppressed.size(), 2u);
  EXPECT_EQ(t.suppressed[0].suppression, 1u);  // the pods overlap: the expired one is skipped
  EXPECT_EQ(t.suppressed[1].suppression, 2u);  // the services overlap
  EXPECT_EQ(f.count(t, rule::expired_suppression), 1u);
  EXPECT_EQ(f.count(t, rule::unused_suppression), 0u);
}

TEST(Triage, RuleSettingsTurnRulesOffOrChangeTheirSeverity) {
  fixture f(mesh);
  auto t = f.run({}, {{rule::overlap, severity::warning}, {rule::well_known_default, std::nullopt}});
  EXPECT_EQ(f.count(t, rule::well_known_default), 0u);
  ASSERT_GT(f.count(t, rule::overlap), 0u);
  for (const auto& x : t.findings) EXPECT_EQ(x.level, severity::warning);
  // A suppression of a rule that is off hides nothing, so it is unused.
  auto off = f.run({suppress(rule::overlap, {"a/pods", "b/pods"})}, {{rule::overlap, std::nullopt}});
  EXPECT_EQ(off.suppressed.size(), 0u);
  EXPECT_EQ(f.count(off, rule::unused_suppression), 1u);
  // The suppression rules follow the settings too; the last setting of a rule wins.
  auto quiet = f.run({suppress(rule::overlap, {"x", "y"})},
                     {{rule::unused_suppression, severity::error}, {rule::unused_suppression, std::nullopt}});
  EXPECT_EQ(f.count(quiet, rule::unused_suppression), 0u);
}

}  // namespace
}  // namespace cidrcheck
