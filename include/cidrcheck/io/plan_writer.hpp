#pragma once

#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/plan.hpp>

#include <span>
#include <string>
#include <string_view>

namespace cidrcheck {

/// Returns the text of fleet file `file` (read into f) with the plan applied:
/// each moved CIDR replaced where it is written, a range that came from a
/// default or a network type written into its owner as a new key (with a
/// comment saying what it replaces), a range an operation adds written into
/// its owner's role with the others (add-pod-range), requested sizes replaced
/// by their ranges, and DNS addresses updated. Everything else (comments, layout, quoting) is
/// left as it was. Changes to ranges of other files are ignored. Precondition:
/// f was read from text, named file, and p is a plan of f (for another text the
/// edits land in the wrong places, and may throw std::out_of_range).
auto apply_plan_to_text(std::string_view text, const std::string& file, const fleet& f, const plan_result& p)
    -> std::string;

/// Returns the plan as an overlay fleet file, for fleets read from several
/// sources (imports, several fleet files), whose files the plan cannot patch:
/// a `renumber:` list with one entry per change (`{owner, role, from, to}`;
/// role dns for a moved DNS address; `from` a requested size for a filled
/// request; `{owner, role, add}` for a range an operation adds), each with a
/// comment naming where the value it replaces was read.
/// Read beside the same sources (`cidrcheck check SOURCES... overlay.yaml`),
/// the fleet is the planned one; an entry whose `from` the sources no longer
/// give is an error there. `header` lines open the file as comments.
auto write_plan_overlay(const fleet& f, const plan_result& p, std::span<const std::string> header = {})
    -> std::string;

}  // namespace cidrcheck
