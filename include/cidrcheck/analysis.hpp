#pragma once
// One run of the analysis, as `cidrcheck check` and `cidrcheck plan` put it
// together: which configuration applies (CIDRCHECK_CONFIG, --config, the
// .cidrcheck.yaml found upward), which inputs to read, the fleet they make,
// how findings are judged (rule settings, suppressions), their fingerprints,
// the baseline comparison, and the plan with its YAML and runbooks. The CLI,
// the Python package and the html report run checks and plans only through
// analyse_run() and plan_run() (or their stages after loading,
// analyse_fleet() and plan_fleet(), for a fleet loaded once and used often),
// so a program that links cidrcheck gets the CLI's exact results (docs/cpp.md).
// The request and the run's status are in run.hpp, which also offers the same
// runs behind a compile firewall (run_check(), plan_of()) to a program that
// reads the results and need not parse this header's fleet model and plan.

#include <cidrcheck/findings_view.hpp>
#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/finding.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/fleet/suppression.hpp>
#include <cidrcheck/fleet/triage.hpp>
#include <cidrcheck/io/config_loader.hpp>
#include <cidrcheck/io/diagnostic.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/input_limits.hpp>
#include <cidrcheck/plan_request.hpp>
#include <cidrcheck/run.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

namespace cidrcheck {

/// The configuration file a choice leads to: its path (nullopt: none), or the
/// error that CIDRCHECK_CONFIG names no regular file (a FIFO would block the run).
struct config_location {
  std::optional<std::string> path;
  std::optional<diagnostic> problem;
};

/// Returns the configuration file a run with this choice reads, without reading it.
/// Precondition: !(choice.file && choice.none).
auto locate_run_config(const config_choice& choice) -> config_location;

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
  calendar_date today;

  /// The triage options: a copy of the rule settings and suppressions, which
  /// outlives this object.
  auto triage() const -> triage_options { return {rules, suppressions, today}; }
};

/// Returns the judgement of a run with configuration cfg on a fleet whose
/// files hold fleet_suppressions.
auto judgement_for(const config& cfg, std::span<const suppression> fleet_suppressions,
                   calendar_date today = today_utc()) -> judgement;

/// What a run finds in one fleet: the findings as reported (rule settings and
/// suppressions applied; expired and unused suppressions are findings), the
/// suppressed ones, and each reported finding's fingerprint. The reported
/// overlap findings (one per overlapping pair: a fleet can have millions) are
/// held without their message and hint; shown_findings() and all_findings()
/// read them with it. The suppressed ones have theirs.
struct analysis {
  triage_result triaged;
  std::vector<std::string> fingerprints;  ///< of triaged.findings, in order
};

/// Checks f and judges the findings. Throws limit_error past options.max_findings.
auto analyse(const fleet& f, const judgement& j, const check_options& options = {}) -> analysis;

/// The findings a report shows: not in the baseline and at or above the
/// minimum severity; and whether the run fails (a finding not in the baseline
/// at or above fail-on, shown or not). It holds their indexes, not copies.
struct selection {
  std::vector<std::uint32_t> indexes;  ///< of the findings selected from, in order
  std::size_t baselined = 0;      ///< left out: in the baseline
  std::size_t below_minimum = 0;  ///< left out: below min_severity
  bool fails = false;
};

/// Compares the findings (with their fingerprints) with a baseline (the
/// fingerprints of an earlier run) and the policy.
auto select(std::span<const finding> findings, std::span<const std::string> fingerprints, const report_policy& policy,
            const std::unordered_set<std::string>& baseline = {}) -> selection;

/// The findings of `found` (an analysis of f with catalog c) that `shown`
/// (selected from them) shows, with their fingerprints and text; valid while
/// all four live.
auto shown_findings(const fleet& f, const catalog& c, const analysis& found, const selection& shown) -> findings_view;

/// Every finding of `found` (an analysis of f with catalog c), with its
/// fingerprint and text; valid while all three live.
auto all_findings(const fleet& f, const catalog& c, const analysis& found) -> findings_view;

/// A source's text in a version of the inputs other than the files as they
/// are (`cidrcheck diff --rev REV` reads them as git has them at REV).
struct source_version {
  std::optional<std::string> text;  ///< nullopt: the file does not exist in that version (it is new)
  std::string error;                ///< why it could not be read; empty when it could
};

/// How a run reads its sources in another version: `read` takes a file's path
/// as the run names it; the run names what it reads "NAME:PATH" ("HEAD:fleet.yaml").
struct version_reader {
  std::string name;
  std::function<source_version(const std::string& path)> read;
};

/// A text read as a fleet source, and what diagnostics call it.
struct source_text {
  std::string text;
  std::string name;
};

/// Where a fleet was read from: its sources and texts, and the text of a fleet
/// read from exactly one fleet file or one text (kept only when asked for),
/// which a plan is written into.
struct fleet_source {
  std::vector<std::string> sources;  ///< fleet files and KIND:FILE sources, in reading order
  std::vector<source_text> texts;    ///< texts read after the sources (Python's Fleet.from_text)
  std::optional<source_text> text;   ///< the one fleet file's or text's text
};

/// A fleet as a run reads it.
struct run_fleet {
  fleet_load_result loaded;
  fleet_source source;
  bool absent = false;  ///< read in a version where none of the sources exists: empty, no error
};

/// Reads sources (fleet files, KIND:FILE and KIND=NAME:FILE imports) and texts
/// as one fleet. keep_text keeps the text of a fleet of one fleet file or one
/// text. With a version, each source is read as that version has it, a source
/// the version lacks is left out, and a version that has none of them gives an
/// empty fleet marked `absent`. Never throws for bad input.
auto load_run_fleet(std::span<const std::string> sources, std::span<const source_text> texts, const catalog& c,
                    const input_limits& limits = {}, bool keep_text = false, const version_reader* version = nullptr)
    -> run_fleet;

/// What a run finds in a fleet it has read: the policy, the judgement, every
/// finding (the baseline's too) and what the reports show.
struct run_verdict {
  report_policy policy;
  judgement judged;
  analysis found;
  selection shown;
};

/// The stages of analyse_run() after loading, for a fleet loaded once
/// (Python's Fleet.check()): the configuration cfg and the request's policy,
/// checking options, baseline and date (its inputs, configuration and limits
/// are not read). Throws limit_error past request.checking.max_findings.
auto analyse_fleet(const config& cfg, const fleet_load_result& loaded, const run_request& request) -> run_verdict;

/// One run, as far as it got. `diagnostics` holds the configuration's, then
/// the fleet's. A stage that fails stops the run: what follows it is empty.
struct run_result {
  run_status status = run_status::no_inputs;
  config cfg;                       ///< the configuration read (cfg.file: where; empty without one)
  std::vector<std::string> inputs;  ///< the sources read (expand_inputs())
  report_policy policy;
  fleet_load_result loaded;         ///< the fleet, its files and the files' suppressions
  fleet_source source;              ///< what the fleet was read from
  judgement judged;
  analysis found;                   ///< every finding of the run (the baseline's too)
  selection shown;                  ///< what the reports show, and whether the run fails
  std::vector<diagnostic> diagnostics;

  /// Reports whether a fleet was read (and checked): no stage failed and there were inputs.
  auto ok() const -> bool { return status == run_status::done; }
  /// Reports whether a stage failed with errors (not merely: nothing to read).
  auto failed() const -> bool {
    return status == run_status::configuration_error || status == run_status::load_error;
  }
  /// The findings the reports show, with their fingerprints and text.
  auto shown_findings() const -> findings_view {
    return cidrcheck::shown_findings(loaded.value, judged.cat, found, shown);
  }
  /// Every finding of the run (the baseline's too), with its fingerprint and text.
  auto all_findings() const -> findings_view { return cidrcheck::all_findings(loaded.value, judged.cat, found); }
};

/// Runs the analysis as `cidrcheck check` does: configuration (discovery and
/// precedence), inputs, load, check, triage, fingerprints, baseline and policy.
/// Never throws for bad input (limit_error past checking.max_findings).
/// With a version, the inputs are read as it has them (load_run_fleet()).
auto analyse_run(const run_request& request, const version_reader* version = nullptr) -> run_result;

/// The stages of analyse_run() up to the load, without checking (`cidrcheck
/// capacity`): found and shown stay empty; judged and policy are set.
auto load_run(const run_request& request, const version_reader* version = nullptr) -> run_result;

/// Everything one plan takes: the whole of `cidrcheck plan`'s input.
struct plan_run_request {
  run_request run;       ///< inputs, configuration, limits, checking, today (fail_on, min_severity, baseline unused)
  plan_request options;  ///< --pool, --avoid, --pin, --cost, ... as given
  bool yaml = false;     ///< write the planned fleet as YAML, read it back and check it
  /// What the YAML of an overlay (several sources, or an import) is called when
  /// read back: the file it is written to.
  std::string yaml_name = "<plan>";
  bool runbooks = false;   ///< make the runbook folders' files (`plan --emit`)
  bool remaining = false;  ///< check the planned fleet (with the what-if connections) and keep what is left
};

/// The planned fleet as YAML: the one fleet file with the plan written in, or
/// an overlay of the changes (`renumber:`) to read after the sources.
struct planned_yaml {
  std::string text;
  bool overlay = false;
};

/// What a plan of one fleet makes.
struct planned {
  judgement judged;
  plan_options options;  ///< as validated; owns all it needs
  plan_result result;
  std::optional<planned_yaml> yaml;           ///< with plan_run_request::yaml
  std::vector<runbook_file> runbooks;         ///< with plan_run_request::runbooks
  std::optional<fleet> after;                 ///< with remaining: the fleet as planned
  std::optional<fleet> seen;                  ///< with remaining: after, with the what-if connections
  std::optional<analysis> remaining;          ///< with remaining: the findings left in `seen`
};

/// Returns the planned fleet as YAML and reads it back with its sources: a
/// fleet with one kept text is that text with the plan written in; any other
/// an overlay named yaml_name. Throws std::logic_error when the text does not
/// read back clean (an internal error: the plan said it leaves no error).
auto write_planned_yaml(const fleet_load_result& loaded, const fleet_source& source, const planned& p,
                        const input_limits& limits, const std::string& yaml_name = "<plan>") -> planned_yaml;

/// The stages of plan_run() after loading, for a fleet loaded once (Python's
/// Fleet.plan()): the plan, then every runbook of it run through the migration
/// simulator (fleet/simulator.hpp), each verdict kept on its operation or
/// change (`simulation`), then the YAML, runbook files and what is left.
/// Throws plan_option_error for a bad option, limit_error past max-findings,
/// std::logic_error when the YAML does not read back clean.
auto plan_fleet(const config& cfg, const fleet_load_result& loaded, const fleet_source& source,
                const plan_run_request& request) -> planned;

/// One plan, as far as it got; `plan` is set when status is done.
struct plan_run_result {
  run_status status = run_status::no_inputs;
  config cfg;
  std::vector<std::string> inputs;
  fleet_load_result loaded;
  fleet_source source;
  std::optional<planned> plan;
  std::vector<diagnostic> diagnostics;  ///< the configuration's, the fleet's, then the plan's

  /// Reports whether the fleet was read and planned.
  auto ok() const -> bool { return status == run_status::done; }
  /// Reports whether a stage failed with errors (not merely: nothing to read).
  auto failed() const -> bool {
    return status == run_status::configuration_error || status == run_status::load_error;
  }
};

/// Plans as `cidrcheck plan` does: configuration, inputs, the options that need
/// no fleet (validated before reading it), load (the text kept for the YAML),
/// judgement, the options that need the fleet, plan, simulation of its
/// runbooks, YAML read back, runbook files. Throws plan_option_error for a bad
/// option (with the message to show), limit_error past max-findings,
/// std::logic_error for YAML that does not read back clean; never throws for
/// bad input.
auto plan_run(const plan_run_request& request) -> plan_run_result;

}  // namespace cidrcheck
