#pragma once
// What `check`, `diff`, `plan`, `map` and `capacity` share: their options, and
// the settings those resolve to. The run itself (configuration discovery and
// precedence, inputs, judgement, fingerprints, baseline) is the library's
// (<cidrcheck/analysis.hpp>); this file only turns options into its requests and
// prints its diagnostics.

#include "options.hpp"
#include "report/report.hpp"
#include "report_target.hpp"

#include <cidrcheck/analysis.hpp>
#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/triage.hpp>
#include <cidrcheck/io/config_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace cidrcheck::cli {

/// Adds the report and configuration options (--format, --fail-on,
/// --min-severity, --color, --quiet, --config, --no-config) to d, and their
/// completion hints to values.
void add_report_options(boost::program_options::options_description& d, std::vector<value_hint>& values);
/// Adds --config and --no-config (add_report_options includes them).
void add_config_options(boost::program_options::options_description& d, std::vector<value_hint>& values);
/// Adds the input limits (--max-file-bytes, ..., --max-errors).
void add_limit_options(boost::program_options::options_description& d);
/// Adds --max-findings, for the commands that check the fleet.
void add_findings_limit_option(boost::program_options::options_description& d);

/// Reads the configuration that --config names, or the .cidrcheck.yaml found
/// from the working directory upward (none with --no-config: an empty config).
/// Returns nullopt, after printing every problem, when the file has errors.
auto read_configuration(const boost::program_options::variables_map& vm, const std::string& help)
    -> std::optional<config>;
/// Returns the input limits of --max-file-bytes and the rest.
auto limits_of(const boost::program_options::variables_map& vm) -> input_limits;
/// Returns how to check a fleet: --max-findings.
auto check_options_of(const boost::program_options::variables_map& vm) -> check_options;

/// The settings of a run.
struct run_settings {
  config cfg;  ///< the configuration file's settings; empty without one
  report_policy policy;  ///< --fail-on, --min-severity over the configuration's
  input_limits limits;
  check_options checking;  ///< --max-findings
  std::vector<report_target> targets;
  text_style style;
  catalog cat;  ///< the built-in catalog plus the configuration's reserved ranges
};

/// Resolves the settings from parsed options. Throws usage_error for a bad
/// option value; returns nullopt, after printing every problem, when the
/// configuration file has errors.
auto resolve_settings(const boost::program_options::variables_map& vm, const std::string& help)
    -> std::optional<run_settings>;

/// Returns the fleet files to read (expand_inputs()). Throws usage_error when
/// there are none.
auto fleet_inputs(const std::vector<std::string>& operands, const config& cfg, const std::string& help)
    -> std::vector<std::string>;

/// One fleet, loaded and judged as the run judges it.
struct analysed {
  fleet_load_result loaded;
  judgement judged;  ///< the catalog, rule settings and suppressions (the configuration's, then the fleet's)
  analysis found;    ///< findings as reported, suppressed ones, fingerprints
};

/// Prints the load diagnostics; returns nullopt when the fleet has errors,
/// else checks and judges it (analyse()).
auto analyse(fleet_load_result loaded, const run_settings& s) -> std::optional<analysed>;

/// For a fleet with load errors: prints the diagnostics, as analyse() does, and
/// writes the reports that say why nothing was checked (check_report::load_failed).
/// Returns exit_trouble.
auto report_load_failure(const fleet_load_result& loaded, const run_settings& s) -> int;

}  // namespace cidrcheck::cli
