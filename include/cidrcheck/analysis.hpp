#pragma once
// One run of the analysis, as `cidrcheck check` puts it together: which
// configuration applies, which inputs to read, how findings are judged (rule
// settings, suppressions), their fingerprints, and the baseline comparison.
// The CLI and the Python package call these; a program that links cidrcheck
// gets the CLI's exact findings from analyse_run() (docs/cpp.md).

#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/finding.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/suppression.hpp>
#include <cidrcheck/fleet/triage.hpp>
#include <cidrcheck/io/config_loader.hpp>
#include <cidrcheck/io/diagnostic.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/input_limits.hpp>

#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

namespace cidrcheck {

/// Which configuration a run reads: by default the .cidrcheck.yaml found from
/// `start` upward (find_config()); `file` names one (--config); `none` reads
/// none (--no-config). `file` and `none` exclude each other.
struct config_choice {
  std::optional<std::string> file;
  bool none = false;
  std::string start = ".";
};

/// Reads the configuration a run uses: an empty config (and no diagnostics)
/// when there is none. Never throws for bad input.
/// Precondition: !(choice.file && choice.none).
auto load_run_config(const config_choice& choice, const input_limits& limits = {}) -> config_load_result;

/// Returns the sources to read: `operands` if any, else the configuration's
/// inputs; a directory stands for its *.yaml and *.yml files, sorted (an empty
/// one stays, so that reading it reports "is a directory"). Empty when neither
/// names anything.
auto expand_inputs(std::span<const std::string> operands, const config& cfg) -> std::vector<std::string>;

/// When a run fails and what its reports show: the command line's choice,
/// else the configuration's, else error and note.
struct report_policy {
  fail_threshold fail_on{severity::error};
  severity min_severity = severity::note;
};

/// Resolves the policy: a given value wins over the configuration's.
auto resolve_policy(const config& cfg, std::optional<fail_threshold> fail_on = {},
                    std::optional<severity> min_severity = {}) -> report_policy;

/// How a run judges findings: the catalog (the built-in one plus the
/// configuration's reserved blocks), the configuration's rule settings, and the
/// suppressions (the configuration's, then the fleet files'), as of `today`.
struct judgement {
  catalog cat;
  std::vector<rule_override> rules;
  std::vector<suppression> suppressions;
  std::chrono::year_month_day today;

  /// The triage options; they point into this object.
  auto triage() const -> triage_options { return {rules, suppressions, today}; }
};

/// Returns the judgement of a run with configuration cfg on a fleet whose
/// files hold fleet_suppressions.
auto judgement_for(const config& cfg, std::span<const suppression> fleet_suppressions,
                   std::chrono::year_month_day today = today_utc()) -> judgement;

/// What a run finds in one fleet: the findings as reported (rule settings and
/// suppressions applied; expired and unused suppressions are findings), the
/// suppressed ones, and each reported finding's fingerprint.
struct analysis {
  triage_result triaged;
  std::vector<std::string> fingerprints;  ///< of triaged.findings, in order
};

/// Checks f and judges the findings. Throws limit_error past options.max_findings.
auto analyse(const fleet& f, const judgement& j, const check_options& options = {}) -> analysis;

/// The findings a report shows: not in the baseline and at or above the
/// minimum severity; and whether the run fails (a finding not in the baseline
/// at or above fail-on, shown or not).
struct selection {
  std::vector<finding> findings;
  std::vector<std::string> fingerprints;
  std::size_t baselined = 0;      ///< left out: in the baseline
  std::size_t below_minimum = 0;  ///< left out: below min_severity
  bool fails = false;
};

/// Compares the findings (with their fingerprints) with a baseline (the
/// fingerprints of an earlier run) and the policy.
auto select(std::span<const finding> findings, std::span<const std::string> fingerprints, const report_policy& policy,
            const std::unordered_set<std::string>& baseline = {}) -> selection;

/// Everything one run takes: the whole of `cidrcheck check`'s input.
struct run_request {
  std::vector<std::string> inputs;  ///< fleet files, KIND:FILE sources, directories; empty: the configuration's
  config_choice configuration;
  std::optional<fail_threshold> fail_on;     ///< overrides the configuration's
  std::optional<severity> min_severity;      ///< overrides the configuration's
  input_limits limits;
  check_options checking;
  std::unordered_set<std::string> baseline;  ///< fingerprints to leave out
  std::chrono::year_month_day today = today_utc();
};

/// One run, as far as it got. `diagnostics` holds the configuration's, then
/// the fleet's; a stage with errors stops the run (ok() is false and what
/// follows is empty). `inputs` is empty when nothing names a fleet.
struct run_result {
  config cfg;
  std::vector<std::string> inputs;  ///< the sources read (expand_inputs())
  report_policy policy;
  fleet_load_result loaded;         ///< the fleet, its files and the files' suppressions
  judgement judged;
  analysis found;                   ///< every finding of the run (the baseline's too)
  selection shown;                  ///< what the reports show, and whether the run fails
  std::vector<diagnostic> diagnostics;

  auto ok() const -> bool { return !inputs.empty() && !has_errors(diagnostics); }
};

/// Runs the analysis as `cidrcheck check` does: configuration (discovery and
/// precedence), inputs, load, check, triage, fingerprints, baseline and policy.
/// Never throws for bad input (limit_error past checking.max_findings).
auto analyse_run(const run_request& request) -> run_result;

}  // namespace cidrcheck
