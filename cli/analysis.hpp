#pragma once
// What `check`, `diff`, `plan`, `map` and `capacity` share: their options,
// turned into the library's requests (run_request, config_choice), and the
// printing of a run's diagnostics. The run itself (configuration discovery
// and CIDRCHECK_CONFIG, inputs, judgement, fingerprints, baseline, the plan)
// is the library's analyse_run() and plan_run() (<cidrcheck/analysis.hpp>):
// no stage of it is written here.

#include "options.hpp"
#include "report/report.hpp"
#include "report_target.hpp"

#include <cidrcheck/analysis.hpp>

#include <span>
#include <string>
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

/// Returns the input limits of --max-file-bytes and the rest.
auto limits_of(const boost::program_options::variables_map& vm) -> input_limits;
/// Returns how to check a fleet: --max-findings.
auto check_options_of(const boost::program_options::variables_map& vm) -> check_options;

/// Returns the run's request from the options: the operands, --config or
/// --no-config (CIDRCHECK_CONFIG and discovery are the library's), the limits,
/// and where the command has them --max-findings, --fail-on and --min-severity.
/// Throws usage_error for a bad option value.
auto run_request_of(const boost::program_options::variables_map& vm, const std::string& help) -> run_request;

/// How reports are written: --format targets, --color and --quiet.
struct report_settings {
  std::vector<report_target> targets;
  text_style style;
};

/// Returns the report settings of the options. Throws usage_error for a bad value.
auto report_settings_of(const boost::program_options::variables_map& vm, const std::string& help) -> report_settings;

/// Prints diagnostics to standard error, GNU style.
void print_diagnostics(std::span<const diagnostic> diagnostics);

/// After a run, before anything is written: notes its configuration and
/// sources as inputs (never overwritten), refuses an output that names one
/// (usage_error), and turns "nothing names a fleet" into the usage error that
/// says how to name one. Returns false when the configuration had errors (the
/// caller prints the diagnostics and exits 2).
auto accept_run(run_status status, const config& cfg, std::span<const std::string> inputs,
                std::span<const std::string> outputs, const std::string& help) -> bool;

/// For a fleet with load errors: writes the reports that say why nothing was
/// checked (check_report::load_failed). Returns exit_trouble.
auto report_load_failure(const fleet_load_result& loaded, const report_settings& s) -> int;

}  // namespace cidrcheck::cli
