#pragma once
// A run of `cidrcheck check` and `cidrcheck plan` for a program that links
// cidrcheck, behind a compile firewall: the request (what the command line
// would say), and the results as handles to what the library computed (the
// fleet, the judgement, the findings, the plan with its typed runbooks), read
// through small views. Including this header parses none of the fleet model,
// the catalog or the plan (bench/compile_time.py measures it; the test
// tree.compile_firewall keeps it so): a program that needs them as data
// includes <cidrcheck/analysis.hpp> and reads result().

#include <cidrcheck/fleet/calendar_date.hpp>
#include <cidrcheck/fleet/check_options.hpp>
#include <cidrcheck/io/diagnostic.hpp>
#include <cidrcheck/io/input_limits.hpp>
#include <cidrcheck/severity.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cidrcheck {

/// The environment variable that names the configuration of every run of a
/// shell or a CI job, as --config would; --config and --no-config override it.
inline constexpr char config_environment_variable[] = "CIDRCHECK_CONFIG";

/// Which configuration a run reads, first match wins: `file` (--config);
/// none with `none` (--no-config); the file CIDRCHECK_CONFIG names, when
/// `environment` is set and the variable is not empty; else the
/// .cidrcheck.yaml found from `start` upward (find_config()).
/// `file` and `none` exclude each other.
struct config_choice {
  std::optional<std::string> file;
  bool none = false;
  bool environment = true;
  std::string start = ".";
};

/// Everything one run takes: the whole of `cidrcheck check`'s input.
struct run_request {
  std::vector<std::string> inputs;  ///< fleet files, KIND:FILE sources, directories; empty: the configuration's
  config_choice configuration;
  std::optional<fail_threshold> fail_on;     ///< overrides the configuration's
  std::optional<severity> min_severity;      ///< overrides the configuration's
  input_limits limits;
  check_options checking;
  std::vector<std::string> baseline;  ///< fingerprints to leave out (a baseline file's), in any order
  calendar_date today = today_utc();
};

/// How far a run got.
enum class run_status : std::uint8_t {
  done,                 ///< the fleet was read (and, by analyse_run(), checked)
  no_inputs,            ///< nothing names a fleet: no inputs, and no configuration inputs
  configuration_error,  ///< the configuration has errors (in `diagnostics`)
  load_error,           ///< the fleet has errors, or (plan_run(), YAML) a construct its file cannot be rewritten in (in `diagnostics`)
  absent,               ///< the version read has none of the inputs: nothing to check, no error
};

namespace detail {

struct shared_body;  // lib/cidrcheck/analysis/run.cpp: what a handle refers to, with its count of handles

/// A counted reference to a result the library holds, so that this header
/// needs no <memory>: copies share the result, the last one frees it.
class shared_handle {
 public:
  explicit shared_handle(shared_body* body) noexcept : body_(body) {}
  shared_handle(const shared_handle& other) noexcept;
  shared_handle(shared_handle&& other) noexcept : body_(std::exchange(other.body_, nullptr)) {}
  auto operator=(shared_handle other) noexcept -> shared_handle& {
    std::swap(body_, other.body_);
    return *this;
  }
  ~shared_handle();
  auto get() const noexcept -> const shared_body* { return body_; }

 private:
  shared_body* body_;
};

}  // namespace detail

struct run_result;  // <cidrcheck/analysis.hpp>
struct planned;     // <cidrcheck/analysis.hpp>

/// A range as reports and suppressions name it: its owner and its role
/// ("pods", "services", "network" or the network's type, "route", "global").
struct range_name {
  std::string owner;
  std::string role;
};

/// A finding as the check report shows it.
struct finding_view {
  severity level = severity::note;
  std::string rule;                ///< the rule's name: "overlap"
  std::string fingerprint;         ///< what a baseline keeps
  std::string message;
  std::vector<range_name> ranges;  ///< the ranges it is about, in its order
  std::string overlap;             ///< the addresses they share: a prefix, else "FIRST-LAST"; empty when none
};

/// A finished analyse_run(): a handle to its result, which the library holds
/// with the views of it (made once, when the run finishes).
/// Copies share the one result, which never changes; a moved-from handle may
/// only be assigned to or destroyed.
class checked_run {
 public:
  /// Reports how far the run got, and ok(): a fleet was read and checked.
  auto status() const -> run_status;
  auto ok() const -> bool;
  /// Reports whether a stage failed with errors (not merely: nothing to read).
  auto failed() const -> bool;
  /// The configuration's diagnostics, then the fleet's.
  auto diagnostics() const -> std::span<const diagnostic>;
  /// The findings a report shows (baseline and min-severity applied), in order.
  auto findings() const -> std::span<const finding_view>;
  /// Counts the findings suppressions accepted.
  auto suppressed() const -> std::size_t;
  /// Reports whether CI fails: a finding at or above fail-on, not in the baseline.
  auto fails() const -> bool;
  /// Everything the run made, as data (complete with <cidrcheck/analysis.hpp>).
  auto result() const -> const run_result&;
  /// The request it ran.
  auto request() const -> const run_request&;

 private:
  struct state;
  friend auto run_check(const run_request& request) -> checked_run;
  explicit checked_run(detail::shared_handle s) noexcept : state_(std::move(s)) {}
  auto body() const -> const state&;
  detail::shared_handle state_;
};

/// Runs the check as `cidrcheck check` does (analyse_run()). Never throws for
/// bad input (limit_error past request.checking.max_findings).
auto run_check(const run_request& request) -> checked_run;

/// One range a plan moves, resizes or creates.
struct change_view {
  range_name range;
  std::string from;       ///< the prefix it moves from; empty for a new range
  std::string to;         ///< the prefix it moves to
  std::string addresses;  ///< how many addresses `to` holds, in decimal (up to 2^128)
  std::size_t steps = 0;  ///< the steps that carry it out (its operation's)
};

/// One operation of a plan: what an operator does to one owner, or to every
/// cluster of one VPC at once.
struct operation_view {
  std::string kind;                  ///< the catalog's operation kind
  std::vector<std::string> owners;   ///< their names
  int cost = 0;
  std::vector<std::size_t> changes;  ///< indexes into planned_run::changes()
  std::size_t steps = 0;
};

/// A finished plan of a checked fleet: a handle to the plan, which the library
/// holds with the views of it. Copies share the one plan, which never changes; a moved-from handle
/// may only be assigned to or destroyed.
class planned_run {
 public:
  /// Reports whether the plan leaves no error (problems() is empty).
  auto complete() const -> bool;
  auto total_cost() const -> int;
  auto operations() const -> std::span<const operation_view>;
  auto changes() const -> std::span<const change_view>;
  /// What the plan cannot fix, each as its message.
  auto problems() const -> std::span<const std::string>;
  /// Problems with the plan's settings (a pin that matches nothing, an empty pool).
  auto diagnostics() const -> std::span<const diagnostic>;
  /// Everything the plan made, as data (complete with <cidrcheck/analysis.hpp>).
  auto result() const -> const planned&;

 private:
  struct state;
  friend auto plan_of(const checked_run& run) -> planned_run;
  explicit planned_run(detail::shared_handle s) noexcept : state_(std::move(s)) {}
  auto body() const -> const state&;
  detail::shared_handle state_;
};

/// Plans the fleet run checked, judged the same way, as `cidrcheck plan` with
/// no plan option does (plan_fleet()): every runbook simulated. Throws
/// std::invalid_argument when !run.ok() (there is no fleet to plan), limit_error
/// past max-findings.
auto plan_of(const checked_run& run) -> planned_run;

}  // namespace cidrcheck
