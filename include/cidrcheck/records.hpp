#pragma once
// Records: the one shape of each result as data. Findings, suppressions,
// connections, diagnostics, plans, operations, changes, problems, steps and
// simulations each have one function that writes their record, which the
// CLI's JSON reports and the Python package both use (nlohmann's to_json idea,
// without a tree: a record_sink receives the record as it is written, so that
// a report of a million findings streams). docs/schemas/ holds the JSON Schemas of the
// two documents made of them, `cidrcheck check --format json` and `cidrcheck
// plan --format json`.

#include <cidrcheck/fleet/finding.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/simulator.hpp>
#include <cidrcheck/fleet/suppression.hpp>
#include <cidrcheck/fleet/triage.hpp>
#include <cidrcheck/io/diagnostic.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {

/// The version of the record shapes and of the documents made of them: it
/// changes only when a field is removed or changes meaning (new fields may
/// appear within a version). Each document says it in "version" and names its
/// JSON Schema in "schema".
inline constexpr int record_version = 1;

/// The JSON Schemas of the documents, as their "schema" field names them (the
/// files are docs/schemas/check-report-1.schema.json and plan-report-1.schema.json).
inline constexpr char check_report_schema[] =
    "https://github.com/cidrcheck/cidrcheck/blob/main/docs/schemas/check-report-1.schema.json";
inline constexpr char plan_report_schema[] =
    "https://github.com/cidrcheck/cidrcheck/blob/main/docs/schemas/plan-report-1.schema.json";

/// Receives a record as a sequence of JSON events: objects (keys, then values),
/// arrays, strings, numbers, booleans and null. The CLI's JSON writer and the
/// Python bindings implement it. Strings are UTF-8 as the input gave them; a
/// sink replaces what its format cannot hold.
class record_sink {
 public:
  virtual ~record_sink() = default;
  virtual void begin_object() = 0;
  virtual void end_object() = 0;
  virtual void begin_array() = 0;
  virtual void end_array() = 0;
  virtual void key(std::string_view k) = 0;
  virtual void value(std::string_view v) = 0;
  virtual void value(std::uint64_t v) = 0;
  virtual void value(std::int64_t v) = 0;
  virtual void value(bool v) = 0;
  virtual void null() = 0;

  // Overloads that keep a const char* from turning into a bool, and every integer exact.
  void value(const char* v) { value(std::string_view(v)); }
  void value(const std::string& v) { value(std::string_view(v)); }
  void value(std::uint32_t v) { value(std::uint64_t{v}); }
  void value(int v) { value(std::int64_t{v}); }
  /// Writes key and value.
  template <class T>
  void member(std::string_view k, const T& v) {
    key(k);
    value(v);
  }
  /// Writes key and null.
  void null_member(std::string_view k) {
    key(k);
    null();
  }
};

/// Writes range k of f: {owner, owner_kind, role, cidr, origin, file, line,
/// column, end_column (null when the value spans lines)}.
void write_range_record(record_sink& out, const fleet& f, std::uint32_t k);

/// Writes connection k of f: {index, name (null when unnamed), description,
/// members, via, routes, file, line, column}.
void write_connection_record(record_sink& out, const fleet& f, std::uint32_t k);

/// Writes a finding of f: {rule, rule_id, severity, message, fingerprint,
/// overlap ({first, last, cidr}, null), ranges, file, line, column,
/// end_column (where it points: its first range, or the suppression a
/// suppression rule reports), routed_at, via (indexes into f.connections; null
/// when with_via is false, for findings of another fleet), block ({cidr,
/// name, source}, null), hint}.
void write_finding_record(record_sink& out, const fleet& f, const finding& x, std::string_view fingerprint,
                          bool with_via = true);

/// Writes a suppression: {reason, expires ("YYYY-MM-DD", null), file, line, column}.
void write_suppression_record(record_sink& out, const suppression& s);

/// Writes a suppressed finding: the finding's record with one more member,
/// "suppression", the record of suppressions[x.suppression].
void write_suppressed_record(record_sink& out, const fleet& f, const suppressed_finding& x,
                             std::span<const suppression> suppressions, std::string_view fingerprint);

/// Writes a diagnostic: {severity, code, message, file, line, column, notes
/// (omitted when there are none)}.
void write_diagnostic_record(record_sink& out, const diagnostic& d);

/// Writes a migration step: {step, relies_on ([{id, fact, source, status}]),
/// needs, makes, files}.
void write_step_record(record_sink& out, const migration_step& s);

/// Writes the simulation of a runbook: {passed, steps (how many the runbook
/// has), skipped (the numbers, from 1, of steps without machine meaning, not
/// simulated), failures ([{step (its number, from 1; null for the end state),
/// check, rule (null where no upstream rule is behind it), fact (the rule's
/// fact id, null without a rule), message}], in step order)}.
void write_simulation_record(record_sink& out, const simulation_result& r);

/// Writes a plan operation of f: {kind, changes_what, owners, cost, counted,
/// changes (indexes into the plan's changes), steps, simulation (its runbook's
/// simulation record; null when not simulated)}.
void write_operation_record(record_sink& out, const fleet& f, const plan_operation& op);

/// Returns the role a change's record names: its range's (fleet::role_name()),
/// or for a new range the role requested.
auto change_role(const fleet& f, const plan_change& c) -> std::string;

/// Writes a plan change of f: {owner, owner_kind, role, from (null for a new
/// range), to, cost, operation (index, null), origin (the moved range's, or
/// "new"), file, line, column (the range, the request it fills, or the
/// owner), dns_from, dns_to (null unless the DNS address moves),
/// transition_safe, reasons, steps (its own; a change of an operation has its
/// steps on the operation), simulation (its own runbook's, as steps; null for
/// a change of an operation and when not simulated)}.
void write_change_record(record_sink& out, const fleet& f, const plan_change& c);

/// Writes a problem a plan of f leaves: {rule (null when a pool had no room),
/// message, ranges (range records), requests ([{owner, role, file, line, column}])}.
void write_problem_record(record_sink& out, const fleet& f, const plan_problem& p);

/// Writes a plan of f as the document `cidrcheck plan --format json` prints:
/// {version, schema, tool, summary {complete, optimal, operations, changes,
/// owners_changed, total_cost, problems, runbooks_failed (plan_result::
/// runbooks_failed()), files}, operations, changes,
/// problems, diagnostics}.
void write_plan_record(record_sink& out, const fleet& f, const plan_result& p, std::span<const std::string> files);

}  // namespace cidrcheck
