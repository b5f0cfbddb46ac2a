#pragma once
// A fixture fleet of tests/fixtures/fleets/runbook/ (or inline YAML) planned,
// with its operations' steps and the files `plan --emit` writes; and the
// ordering rule (every need made by an earlier step) checked on it.

#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/iostream.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::testing {

struct planned_runbooks {
  fleet model;
  plan_result result;
  std::vector<runbook_file> files;

  /// The steps of operation k.
  auto steps(std::size_t k = 0) const -> const std::vector<migration_step>& { return result.operations.at(k).steps; }
  /// The text of every step of operation k, one per line.
  auto text(std::size_t k = 0) const -> std::string {
    std::string out;
    for (const auto& s : steps(k)) out += s.text + "\n";
    return out;
  }
  /// The index of the first step of operation k whose text contains word, or -1.
  auto step_with(std::string_view word, std::size_t k = 0) const -> int {
    const auto& all = steps(k);
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (all[i].text.find(word) != std::string::npos) return static_cast<int>(i);
    }
    return -1;
  }
  /// The emitted file whose path ends with name ("" when none).
  auto file(std::string_view name) const -> std::string {
    for (const auto& f : files) {
      if (f.path.size() >= name.size() && f.path.compare(f.path.size() - name.size(), name.size(), name) == 0) {
        return f.text;
      }
    }
    return "";
  }
};

inline auto plan_fleet(fleet_loader loader) -> planned_runbooks {
  auto loaded = loader.finish();
  EXPECT_TRUE(loaded.ok()) << (loaded.diagnostics.empty() ? "" : format_diagnostic(loaded.diagnostics[0]));
  auto result = plan(loaded.value, builtin_catalog());
  auto files = runbook_files(loaded.value, result, builtin_catalog());
  return {std::move(loaded.value), std::move(result), std::move(files)};
}

/// Plans tests/fixtures/fleets/runbook/NAME.yaml.
inline auto plan_fixture(const std::string& name) -> planned_runbooks {
  fleet_loader loader(builtin_catalog());
  loader.add_file(std::string(CIDRCHECK_FIXTURES) + "/fleets/runbook/" + name + ".yaml");
  return plan_fleet(std::move(loader));
}

/// Plans a fleet given as YAML text.
inline auto plan_text(std::string_view yaml) -> planned_runbooks {
  fleet_loader loader(builtin_catalog());
  loader.add_text(yaml, "t.yaml");
  return plan_fleet(std::move(loader));
}

/// Every operation's steps follow the ordering rule and end by retiring the
/// old range (the state "old-range-unused"), or, for added space, by checking it.
inline void expect_ordered(const planned_runbooks& p) {
  ASSERT_FALSE(p.result.operations.empty());
  for (const auto& op : p.result.operations) {
    std::set<std::string> made;
    for (const auto& s : op.steps) {
      for (const auto& n : s.needs) EXPECT_TRUE(made.count(n)) << op.kind << ": '" << s.text << "' needs " << n;
      made.insert(s.makes.begin(), s.makes.end());
    }
    // Clean-up after the retirement (route withdrawals, a provider block
    // disassociated) needs "old-range-unused" or "new-route-advertised"; the
    // step before it is the one that retires the old range.
    auto end = op.steps.end();
    while (end != op.steps.begin()) {
      const auto& n = std::prev(end)->needs;
      if (std::find(n.begin(), n.end(), "old-range-unused") == n.end() &&
          std::find(n.begin(), n.end(), "new-route-advertised") == n.end()) {
        break;
      }
      --end;
    }
    ASSERT_NE(end, op.steps.begin()) << op.kind;
    const auto& last = std::prev(end)->makes;
    bool retired = std::find(last.begin(), last.end(), "old-range-unused") != last.end() ||
                   std::find(last.begin(), last.end(), "new-range-verified") != last.end();
    EXPECT_TRUE(retired) << op.kind << ": last step '" << std::prev(end)->text << "'";
  }
}

}  // namespace cidrcheck::testing
