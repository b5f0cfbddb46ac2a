// Which ranges the plan's pins pin (lib/cidrcheck/fleet/pins.hpp): the grouped
// matching agrees with pins(), the definition, pattern by pattern and range by
// range, on random fleets and patterns.

#include "../../lib/cidrcheck/fleet/pins.hpp"
#include "../unit/random.hpp"

#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace cidrcheck {
namespace {

auto load(const std::string& yaml) -> fleet {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "pins.yaml");
  auto loaded = loader.finish();
  EXPECT_TRUE(loaded.ok()) << (loaded.diagnostics.empty() ? "" : format_diagnostic(loaded.diagnostics[0]));
  return loaded.value;
}

// What pins() says, pin by pin and range by range.
auto by_definition(const std::vector<pin_pattern>& pins_given, const fleet& f) -> detail::pinned_ranges {
  detail::pinned_ranges out;
  out.pinned.assign(f.ranges.size(), false);
  out.used.assign(pins_given.size(), false);
  for (std::size_t p = 0; p < pins_given.size(); ++p) {
    for (std::uint32_t k = 0; k < f.ranges.size(); ++k) {
      if (!pins(pins_given[p], f, f.ranges[k])) continue;
      out.pinned[k] = true;
      out.used[p] = true;
    }
  }
  return out;
}

TEST(MatchPins, ExactPrefixSuffixAndInfixPatterns) {
  auto f = load("version: 1\nclusters:\n"
                "  - {name: prod-eu, pods: 10.0.0.0/16, services: 10.96.0.0/16}\n"
                "  - {name: prod-us, pods: 10.1.0.0/16, services: 10.97.0.0/16}\n"
                "  - {name: dev-eu, pods: 10.2.0.0/16, services: 10.98.0.0/16}\n"
                "networks:\n  - {name: office, type: office, cidrs: [192.168.0.0/24]}\n");
  std::vector<pin_pattern> given{{"prod-us", {}}, {"*-eu/pods", {}}, {"prod-*", {}}, {"*ffic*", {}},
                                 {"nobody", {}},  {"prod-*", {}},    {"*/network", {}}, {"*", {}}};
  auto got = detail::match_pins(given, f);
  auto want = by_definition(given, f);
  EXPECT_EQ(got.pinned, want.pinned);
  EXPECT_EQ(got.used, want.used);
  EXPECT_EQ(got.used, (std::vector<bool>{true, true, true, true, false, true, false, true}));
}

TEST(MatchPins, AgreesWithPinsOnRandomFleetsAndPatterns) {
  test::random_source random(28);
  auto word = [&](std::size_t most, std::string_view alphabet) {
    std::string out(1 + random() % most, ' ');
    for (auto& c : out) c = alphabet[random() % alphabet.size()];
    return out;
  };
  const char* roles[] = {"", "/pods", "/services", "/network", "/office", "/route"};
  for (int round = 0; round < 200; ++round) {
    std::string yaml = "version: 1\nclusters:\n";
    std::set<std::string> names;
    for (int k = 0; k < 12; ++k) {
      auto name = word(5, "ab-/");
      if (name.front() == '-' || !names.insert(name).second) continue;
      yaml += "  - {name: '" + name + "', pods: 10." + std::to_string(k) + ".0.0/16, services: 10." +
              std::to_string(100 + k) + ".0.0/16}\n";
    }
    yaml += "networks:\n  - {name: office-a, type: office, cidrs: [192.168.0.0/24]}\n";
    auto f = load(yaml);
    std::vector<pin_pattern> given;
    for (int k = 0; k < 10; ++k) given.push_back({word(5, "ab-*") + roles[random() % 6], {}});
    auto got = detail::match_pins(given, f);
    auto want = by_definition(given, f);
    ASSERT_EQ(got.pinned, want.pinned) << yaml;
    ASSERT_EQ(got.used, want.used) << yaml;
  }
}

TEST(MatchPins, NoPinsPinNothing) {
  auto f = load("version: 1\nclusters:\n  - {name: a, pods: 10.0.0.0/16}\n");
  auto got = detail::match_pins({}, f);
  EXPECT_EQ(got.pinned, std::vector<bool>(f.ranges.size(), false));
  EXPECT_TRUE(got.used.empty());
}

}  // namespace
}  // namespace cidrcheck
