#pragma once
// The loaded fleet that cidrcheck.Fleet wraps, and what the register_*.cpp
// files that work on it share: the configuration, the judged check, and the
// conversions of the fleet's parts to plain Python data.

#include <cidrcheck/analysis.hpp>
#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/finding.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/suppression.hpp>
#include <cidrcheck/fleet/triage.hpp>
#include <cidrcheck/io/config_loader.hpp>
#include <cidrcheck/io/diagnostic.hpp>

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cidrcheck::python {

namespace py = pybind11;

/// A fleet as read, with what was read and every diagnostic. Immutable once loaded.
struct fleet_model {
  std::shared_ptr<const fleet> value;
  std::vector<std::string> files;
  std::vector<diagnostic> diagnostics;
  std::vector<suppression> suppressions;  ///< the fleet files' own
  /// The text of a fleet read from exactly one fleet file or text, and its
  /// name: what Plan.to_yaml() applies a plan to. nullopt otherwise.
  std::optional<std::pair<std::string, std::string>> source;
};

/// A .cidrcheck.yaml as read (cidrcheck.Config wraps it).
struct config_model {
  config value;
  std::vector<diagnostic> diagnostics;
};

/// Returns how a run with this configuration (none: nullptr) judges fleet f:
/// the library's judgement_for(), which the CLI uses too.
auto judgement_of(const fleet_model& f, const config_model* cfg) -> judgement;

/// Returns a diagnostic as a dict: severity, code, message, file, line, column, notes.
auto diagnostic_dict(const diagnostic& d) -> py::dict;
/// Returns range k of f as a record: owner, owner_kind, role, cidr, version, ... column.
auto range_record(const fleet& f, std::uint32_t k) -> py::dict;
/// Returns a finding as a dict, its ranges as range records.
auto finding_dict(const fleet& f, const finding& x) -> py::dict;
/// Returns an analysis as {"findings": [...], "suppressed": [{"finding", "reason", ...}]}, each
/// reported finding with its fingerprint.
auto analysis_dict(const fleet& f, const analysis& a, const std::vector<suppression>& suppressions) -> py::dict;

}  // namespace cidrcheck::python
