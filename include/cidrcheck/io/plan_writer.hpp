#pragma once

#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/plan.hpp>

#include <string>
#include <string_view>

namespace cidrcheck {

/// Returns the text of fleet file `file` (read into f) with the plan applied:
/// each moved CIDR replaced where it is written, a range that came from a
/// default or a network type written into its owner as a new key (with a
/// comment saying what it replaces), requested sizes replaced by their ranges,
/// and DNS addresses updated. Everything else (comments, layout, quoting) is
/// left as it was. Changes to ranges of other files are ignored. Precondition:
/// f was read from text, named file, and p is a plan of f (for another text the
/// edits land in the wrong places, and may throw std::out_of_range).
auto apply_plan_to_text(std::string_view text, const std::string& file, const fleet& f, const plan_result& p)
    -> std::string;

}  // namespace cidrcheck
