#pragma once
// The loaded fleet that cidrcheck.Fleet wraps, and what the register_*.cpp
// files that work on it share: the configuration, the runs (the library's
// analyse_fleet(), plan_fleet(), analyse_run(), plan_run()) and the
// conversions of their results to records (cidrcheck/records.hpp).

#include <cidrcheck/analysis.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/io/config_loader.hpp>
#include <cidrcheck/io/diagnostic.hpp>

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cidrcheck::python {

namespace py = pybind11;

/// A fleet as read (load_run_fleet(), its text kept), with its sources and
/// every diagnostic. Immutable once loaded, and shared with the worker threads
/// of long calls.
struct fleet_model {
  std::shared_ptr<const run_fleet> read;

  auto value() const -> const fleet& { return read->loaded.value; }
};

/// A .cidrcheck.yaml as read (cidrcheck.Config wraps it).
struct config_model {
  config value;
  std::vector<diagnostic> diagnostics;
};

/// Returns the configuration a call was given (none: nullptr), as the run reads it.
auto config_of(const config_model* cfg) -> config;

/// Returns the name Python gives a run's status: "done", "no-inputs",
/// "configuration-error", "load-error", "absent".
auto status_name(run_status s) -> std::string;

/// Returns the request of a check or plan from Python's arguments: the share of
/// node capacity pod-capacity warns about, fail_on and min_severity (words; a
/// bad one raises ValueError), and the fingerprints of a baseline.
auto request_from(double capacity_warning, const std::optional<std::string>& fail_on,
                  const std::optional<std::string>& min_severity, const std::vector<std::string>& baseline)
    -> run_request;

/// Returns a configuration choice as Python gives it: a file, none, or as the
/// CLI finds one (CIDRCHECK_CONFIG, then .cidrcheck.yaml from start upward).
auto choice_from(const std::optional<std::string>& file, bool none, const std::string& start) -> config_choice;

/// Returns a diagnostic as a dict: its record (severity, code, message, file,
/// line, column) with `meaning` (the code's entry in the registry) and `notes`
/// (always a list).
auto diagnostic_dict(const diagnostic& d) -> py::dict;

/// Returns the findings of a run as Python data: the records of the findings
/// a report shows and of the suppressed ones, the connections they go
/// through, the policy (fail_on, min_severity), whether CI fails, and what was
/// left out (baselined, below_minimum). found is an analysis of f with the
/// judgement judged (its catalog describes the findings, its suppressions are
/// what the suppressed ones name).
auto report_dict(const fleet& f, const analysis& found, const selection& shown, const report_policy& policy,
                 const judgement& judged) -> py::dict;

}  // namespace cidrcheck::python
