#pragma once
// Rendering findings: one function per format, all fed the same checked fleet.

#include "output.hpp"

#include <cidrcheck/fleet/finding.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/diagnostic.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace cidrcheck::cli {

/// Everything a report shows: the fleet, its findings, and the load warnings.
struct check_report {
  const fleet& model;
  const std::vector<finding>& findings;
  const std::vector<diagnostic>& warnings;  ///< non-fatal load diagnostics
  const std::vector<std::string>& files;
};

/// Counts of findings per severity.
struct severity_counts {
  std::size_t errors = 0, warnings = 0, notes = 0;
};
auto count_severities(const std::vector<finding>& findings) -> severity_counts;

/// Compiler-style lines: "file:line:col: severity[rule]: message", then notes
/// for the other range and the connections, a hint, and a summary line.
void write_text(output& out, const check_report& r);

/// The versioned JSON document (see docs/cli.md).
void write_json(output& out, const check_report& r);

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

}  // namespace cidrcheck::cli
