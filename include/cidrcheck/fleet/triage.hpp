#pragma once
// Triage: from everything check() found to what a run reports. Per-rule
// settings turn rules off or change their severity; suppressions hide accepted
// findings, and the suppression rules report the ones that expired or match
// nothing.

#include <cidrcheck/fleet/finding.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/suppression.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace cidrcheck {

/// A rule's configured severity, or off.
struct rule_override {
  rule id = rule::overlap;
  std::optional<severity> level;  ///< nullopt: the rule is off
};

/// What triage() applies. It owns its data, so that options (and the plan
/// options that hold them) outlive whatever they were made from.
struct triage_options {
  std::vector<rule_override> overrides;   ///< the last one for a rule wins
  std::vector<suppression> suppressions;
  calendar_date today;                    ///< a suppression applies through its `expires` day
};

/// A finding a suppression hides.
struct suppressed_finding {
  finding value;
  std::size_t suppression = 0;  ///< index into triage_options::suppressions
};

struct triage_result {
  /// What the run reports: the findings of rules that are on, with their
  /// configured severity, not hidden by a live suppression; then one
  /// expired-suppression finding per expired suppression and one
  /// unused-suppression finding per live suppression that hid nothing, in
  /// the suppressions' order.
  std::vector<finding> findings;
  std::vector<suppressed_finding> suppressed;  ///< in the order of the findings
};

/// Applies the rule settings and the suppressions to findings (as check()
/// returns them, for fleet f). The first live suppression that matches a
/// finding hides it. An expired suppression hides nothing; a suppression of a
/// rule that is off is unused. O(findings x suppressions of the finding's rule).
auto triage(const fleet& f, std::vector<finding> findings, const triage_options& options) -> triage_result;

}  // namespace cidrcheck
