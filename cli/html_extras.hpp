#pragma once
// What the html report shows beyond the findings: the fleet's map and its
// plan, made from the same analysis and settings as `cidrcheck map` and
// `cidrcheck plan` with their defaults, only when an html report is asked for.

#include "analysis.hpp"

#include <cidrcheck/fleet/plan.hpp>

#include <optional>
#include <string>

namespace cidrcheck::cli {

struct html_extras {
  std::string map_svg;   ///< empty when the map could not be drawn
  std::string map_note;  ///< why not
  std::optional<plan_result> planned;
  std::string plan_note;  ///< why there is no plan

  /// Points the report at these (they must outlive it).
  void attach(check_report& r) const;
};

/// Returns whether any of the targets is an html report.
auto wants_html(std::span<const report_target> targets) -> bool;

/// Draws the map and plans the fleet of a run (request: its options), as
/// `cidrcheck map` and `cidrcheck plan` do with their defaults; a map past its
/// row limit or a plan past --max-findings becomes a note, not an error.
auto make_html_extras(const run_result& run, const run_request& request) -> html_extras;

}  // namespace cidrcheck::cli
