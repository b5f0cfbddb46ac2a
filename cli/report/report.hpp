#pragma once
// Rendering a checked fleet: one file per format, all fed the same report.

#include "output.hpp"

#include <cidrcheck/findings_view.hpp>
#include <cidrcheck/fleet/capacity.hpp>
#include <cidrcheck/fleet/finding.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/suppression.hpp>
#include <cidrcheck/fleet/triage.hpp>
#include <cidrcheck/io/diagnostic.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace cidrcheck::cli {

/// Findings of one fleet with their fingerprints.
struct finding_list {
  const fleet& model;
  findings_view findings;
};

/// Everything a report shows.
struct check_report {
  finding_list shown;  ///< the findings to report, in position order
  std::span<const suppressed_finding> suppressed;
  std::span<const suppression> suppressions;  ///< what suppressed[k].suppression indexes
  /// The load diagnostics: warnings, and with load_failed the errors too.
  std::span<const diagnostic> diagnostics;
  std::span<const std::string> files;
  std::size_t baselined = 0;      ///< findings left out because the baseline has them
  std::size_t below_minimum = 0;  ///< findings left out by the minimum severity
  /// The input could not be loaded (exit 2): nothing was checked, shown is
  /// empty, and diagnostics says why (has_failure_report()).
  bool load_failed = false;
  /// `cidrcheck diff`: the findings the change removes (in the old fleet), and
  /// what the old fleet was ("HEAD:fleet.yaml"); shown is then what it adds.
  const finding_list* removed = nullptr;
  std::string_view old_name = {};
  /// The html format's map and plan, made only when an html report is asked
  /// for (set_html_extras); where one could not be made, a note says why.
  std::string_view map_svg = {};
  std::string_view map_note = {};
  const plan_result* plan = nullptr;
  std::string_view plan_note = {};
};

/// Counts of findings per severity.
struct severity_counts {
  std::size_t errors = 0, warnings = 0, notes = 0;
};
auto count_severities(const findings_view& findings) -> severity_counts;

/// Where a report points for a finding: its first range's text, or for a
/// finding without ranges the place it names.
struct finding_location {
  source_location where;
  std::uint32_t end_column = 0;  ///< one past the end, when known
};
auto locate(const fleet& f, const finding& x) -> finding_location;

/// Says where a range came from, for the note that points at it:
/// "services 10.96.0.0/12 of prod-us is the default of distribution kubeadm, set here".
auto range_note(const fleet& f, const fleet_range& r) -> std::string;

/// Returns the URL of a rule's documentation page.
auto rule_help_uri(rule r) -> std::string;

/// Returns a load diagnostic as one line: its message, then each note with its
/// place ("; FILE:LINE:COL: note"), for the formats that hold one text per item.
auto diagnostic_text(const diagnostic& d) -> std::string;

/// Returns the file a report lists a load diagnostic under: its own, or for one
/// about no file (a limit on the whole fleet) the first input ("<stdin>" with none).
auto diagnostic_file(const check_report& r, const diagnostic& d) -> std::string;

/// Returns "3 errors, 0 warnings, 1 note".
auto describe_counts(const severity_counts& c) -> std::string;

/// How the text format looks on a terminal.
struct text_style {
  bool colour = false;  ///< ANSI colours (only ever on the text format)
  bool quiet = false;   ///< only the compiler-style lines: no hints, no summary
};

/// Compiler-style lines: "file:line:col: severity[rule]: message", then notes
/// for the other range and the connections, a hint, and a summary line.
void write_text(output& out, const check_report& r, const text_style& style);

/// The versioned JSON document (see docs/cli.md); also the baseline format.
void write_json(output& out, const check_report& r);

/// SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.
void write_sarif(output& out, const check_report& r);

/// GitHub Actions workflow commands (::error file=...::), capped as GitHub caps them.
void write_github(output& out, const check_report& r);

/// JUnit XML: one test case per rule and owner, for GitLab's and GitHub's test reporters.
void write_junit(output& out, const check_report& r);

/// GitLab Code Quality JSON.
void write_gitlab(output& out, const check_report& r);

/// A Markdown summary for a pull-request comment or a job summary.
void write_markdown(output& out, const check_report& r);

/// Checkstyle XML (reviewdog, Jenkins warnings-ng): one <file> per input, one
/// <error> per finding, source "cidrcheck.CIDR101".
void write_checkstyle(output& out, const check_report& r);

/// One self-contained HTML page: the counts, the map, the findings as a
/// filterable table and the plan; it fetches nothing when opened.
void write_html(output& out, const check_report& r);

/// A plan, with the fleet it was made for.
struct plan_report {
  const fleet& model;
  const plan_result& plan;
  const std::vector<std::string>& files;
};

/// The plan as a table of changes, the reasons, the unresolved problems and the
/// migration steps (docs/cli.md).
void write_plan_text(output& out, const plan_report& r);

/// The plan as versioned JSON (docs/cli.md).
void write_plan_json(output& out, const plan_report& r);

/// A fleet's capacity: its pools' space, and each cluster's node capacity.
struct capacity_report {
  const fleet& model;
  std::span<const pool_summary> pools;
  std::span<const int> lengths;                 ///< the block lengths pool_summary::fits counts
  std::span<const std::vector<prefix>> free;    ///< each pool's free blocks; empty: not listed
  std::span<const cluster_capacity> clusters;   ///< clusters with pod ranges
  const std::vector<std::string>& files;
};

/// The capacity as tables of pools, free blocks and clusters (docs/cli.md).
void write_capacity_text(output& out, const capacity_report& r);

/// The capacity as versioned JSON (docs/cli.md).
void write_capacity_json(output& out, const capacity_report& r);

}  // namespace cidrcheck::cli
