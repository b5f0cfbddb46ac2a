#pragma once

#include <cidrcheck/error.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/source_location.hpp>

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace cidrcheck {

/// What apply_plan_to_text() throws where the plan must change text written in
/// a form it does not rewrite: a range key written as an explicit key (`?
/// network` with `: VALUE` on the next line), a moved route whose text an alias
/// shares. where() is the construct; what() names it and how to write it
/// instead. Bad input, not a bug: `cidrcheck plan --format yaml` reports it at
/// its position and exits 2 without writing.
class plan_text_error : public basic_error<std::invalid_argument> {
 public:
  plan_text_error(const std::string& message, source_location where)
      : basic_error<std::invalid_argument>(message), where_(std::move(where)) {}
  /// Returns where the construct is written.
  auto where() const noexcept -> const source_location& { return where_; }

 private:
  source_location where_;
};

/// Returns the text of fleet file `file` (read into f) with the plan applied:
/// each moved CIDR replaced where it is written (in its quotes, if it has any;
/// a block scalar becomes a plain one), a range that came from a default or a
/// network type written into its owner as a new key (with a comment saying
/// what it replaces), a range an operation adds written into its owner's role
/// with the others (add-pod-range), requested sizes replaced by their ranges,
/// DNS addresses updated, a moved route's CIDR replaced where it is
/// written, and the prefixes the plan withdraws from a connection written
/// into it as a `withdrawn` key. Everything else (comments, layout, quoting) is left as it was. A
/// file that is JSON (its first character opens a flow mapping) gets JSON: keys
/// and values quoted, no comments. Changes to ranges of other files are
/// ignored. Throws plan_text_error for a construct it does not rewrite.
/// Precondition: f was read from text, named file, and p is a plan of f (for
/// another text the edits land in the wrong places, and may throw
/// std::out_of_range).
auto apply_plan_to_text(std::string_view text, const std::string& file, const fleet& f, const plan_result& p)
    -> std::string;

/// Returns the plan as an overlay fleet file, for fleets read from several
/// sources (imports, several fleet files), whose files the plan cannot patch:
/// a `renumber:` list with one entry per change (`{owner, role, from, to}`;
/// role dns for a moved DNS address, routes for a network's route that follows
/// its destination; `from` a requested size for a filled request; `{owner,
/// role, add}` for a range an operation adds), each with a
/// comment naming where the value it replaces was read. A plan that withdraws
/// a range from a connection throws plan_text_error: an overlay changes no
/// connection.
/// Read beside the same sources (`cidrcheck check SOURCES... overlay.yaml`),
/// the fleet is the planned one; an entry whose `from` the sources no longer
/// give is an error there. `header` lines open the file as comments.
auto write_plan_overlay(const fleet& f, const plan_result& p, std::span<const std::string> header = {})
    -> std::string;

}  // namespace cidrcheck
