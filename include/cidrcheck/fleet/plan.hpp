#pragma once
// Planning: the cheapest renumbering that leaves a fleet without errors, with
// the steps of each live migration.

#include <cidrcheck/address.hpp>
#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/finding.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/operation.hpp>
#include <cidrcheck/fleet/simulator.hpp>
#include <cidrcheck/fleet/triage.hpp>
#include <cidrcheck/io/diagnostic.hpp>
#include <cidrcheck/prefix.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cidrcheck {

/// What `plan` may do beyond the fleet file's `plan:` section. Settings given
/// here are added to (pins, avoid, what-if connections) or replace (pools,
/// costs, headroom) the file's.
struct plan_options {
  plan_settings settings;                 ///< command-line settings
  std::vector<connection> connect;        ///< what-if: plan as if these existed
  bool fix_latent = false;                ///< also remove latent overlaps
  check_options check;                    ///< how findings are found
  /// How findings are judged: per-rule severities or off, and suppressions, as
  /// `cidrcheck check` applies them (a suppressed overlap needs no move).
  std::optional<triage_options> triage;
};

/// One fact a migration step relies on, with where it comes from. `id` is its
/// row in docs/migration-facts.md and in docs/planning.md's fact table.
struct migration_fact {
  std::string id;
  std::string text;
  std::string source;
  std::string status;  ///< "verified", "verified (seed)", "derived", "unverified" or "conflicting"
};

/// One step of a live migration as people read it, rendered from its typed
/// step (fleet/runbook_step.hpp). `needs` and `makes` name states of the
/// migration ("new-range-served", "old-range-unused"): a step needs only
/// states an earlier step of the same runbook makes (the ordering rule,
/// checked by tests). `commands` are the shell lines it runs, in order, each
/// one command with every value from the input quoted; `files` names the files
/// the step applies, which `runbook_files` (fleet/runbook.hpp) writes.
struct migration_step {
  std::string text;
  std::vector<migration_fact> facts;
  std::vector<std::string> needs;
  std::vector<std::string> makes;
  std::vector<std::string> files;
  std::vector<std::string> commands;
};

/// One range the plan moves, resizes or creates. Every change an operation makes
/// is listed here too: this flat list is what `--format yaml` applies.
struct plan_change {
  std::uint32_t owner = 0;
  range_role role = range_role::services;
  std::optional<std::uint32_t> range;    ///< the range it moves; nullopt for a new (requested) range
  std::optional<std::uint32_t> request;  ///< the request it fills
  /// The operation it belongs to (index into plan_result::operations); nullopt for a
  /// requested range and for a DNS address put back in its range.
  std::optional<std::uint32_t> operation;
  prefix from;                           ///< invalid for a new range
  prefix to;
  int cost = 0;                          ///< its operation's cost on the operation's first change, else 0
  std::vector<std::string> reasons;      ///< why it moves: the findings it resolves
  std::optional<address> dns_from, dns_to;  ///< the cluster DNS address moves with its service range
  bool transition_safe = true;           ///< free of every old range routed beside it during the move
  /// Where its new range came from, when the plan has named pools: "pool
  /// eu-aws, adjacent to the cluster's network 10.64.0.0/16", "pool eu-aws"
  /// (best fit: the owner has no range in the pool), "role pool pods (no
  /// named pool matches)", "default pools (no named pool matches)"; for a
  /// range the plan derives: "grown in place into the free space beside
  /// 10.244.0.0/16", "the same place in its VPC shared's new range
  /// 10.64.0.0/16", "eks's service default for the cluster's new network",
  /// "the same place in edge's new pods 10.64.0.0/11" (a route that follows
  /// its destination). Empty without named pools, and for a DNS address put
  /// back in its range (the range does not change).
  std::string source;
  /// A range the cluster is created with though it had one before: the service
  /// default that follows a network the plan fills from a request.
  bool created = false;
  std::vector<migration_step> steps;
  /// The simulation of its own runbook (a change outside any operation), set by
  /// the plan run (plan_fleet(), plan_run()); nullopt from plan() alone and for
  /// a change of an operation, whose operation carries it.
  std::optional<simulation_result> simulation;
};

/// A range an operation withdraws from a connection (pod-withdraw): the range
/// stays its owner's, and the connection no longer carries it (connection::withdrawn).
struct plan_withdrawal {
  std::uint32_t connection = 0;  ///< index into fleet::connections
  std::uint32_t range = 0;       ///< index into fleet::ranges: the range that stays
  prefix cidr;                   ///< its prefix
};

/// One operation of the plan: what an operator does to one owner (or to every
/// cluster of one VPC at once), the ranges it changes, and what it costs.
struct plan_operation {
  std::string kind;                      ///< the catalog's operation kind
  operation_scope scope = operation_scope::services;
  std::vector<std::uint32_t> owners;     ///< indexes into fleet::owners; several for a shared VPC
  int cost = 0;
  std::vector<std::string> counted;      ///< what the cost counted: "base 2", "+3 for 300 nodes (1 per 100)"
  std::vector<std::uint32_t> changes;    ///< indexes into plan_result::changes
  std::vector<plan_withdrawal> withdrawals;  ///< the ranges it withdraws from connections (pod-withdraw)
  std::vector<migration_step> steps;     ///< the operation's steps (for one change, that change's)
  std::string maintenance;               ///< what its runbook costs in maintenance (maintenance_of); empty: none
  /// The other operations that share its runbook, in plan order (indexes into
  /// plan_result::operations): in-place operations on one cluster whose
  /// configuration edits wait for an apply (config-apply-separate) are merged
  /// into one maintenance, their applies shared, where the merged runbook
  /// needs fewer applies and the simulator passes it. They carry the same
  /// steps, maintenance and simulation; the cost counts each shared apply once
  /// (catalog::shared_apply). Empty: a runbook of its own.
  std::vector<std::uint32_t> merged_with;
  /// The simulation of its runbook, set by the plan run (plan_fleet(),
  /// plan_run()); nullopt from plan() alone.
  std::optional<simulation_result> simulation;
};

/// A problem the plan cannot fix, and why: an error finding left after the
/// plan (with its rule), or a range for which the pools had no space (no rule).
struct plan_problem {
  std::optional<rule> id;
  std::string message;
  std::vector<std::uint32_t> ranges;    ///< indexes into fleet::ranges of the planned fleet
  std::vector<std::uint32_t> requests;  ///< indexes into fleet::requests, for ranges the plan was to create
};

struct plan_result {
  std::vector<plan_operation> operations;  ///< ordered by first owner, then kind
  std::vector<plan_change> changes;   ///< ordered by owner, then role
  std::vector<plan_problem> problems; ///< empty when the plan leaves no errors
  int total_cost = 0;
  /// What one maintenance per cluster took off the operations' costs
  /// (plan_operation::merged_with): total_cost + shared_apply_saving is the cost
  /// of the choice the search made, which it made on the operations' own costs.
  int shared_apply_saving = 0;
  std::size_t owners_changed = 0;
  bool optimal = true;  ///< the choice of operations was proven cheapest
  /// The findings of the fleet with the plan applied (what-if connections included).
  std::vector<finding> remaining;
  /// Problems with the plan settings: a pin that matches nothing, an empty pool.
  std::vector<diagnostic> diagnostics;

  auto complete() const -> bool { return problems.empty(); }
  /// The operations that share operation k's runbook (plan_operation::merged_with),
  /// k among them, in plan order: {k} for one with a runbook of its own.
  auto sharing_runbook(std::uint32_t k) const -> std::vector<std::uint32_t> {
    std::vector<std::uint32_t> out = operations[k].merged_with;
    auto at = out.begin();
    while (at != out.end() && *at < k) ++at;
    out.insert(at, k);
    return out;
  }
  /// Reports whether operation k's runbook is an earlier operation's, where it
  /// is written and printed once for both.
  auto runbook_is_earlier(std::uint32_t k) const -> bool {
    const auto& with = operations[k].merged_with;
    return !with.empty() && with.front() < k;
  }
  /// Counts the runbooks (of operations, and of changes outside any) whose
  /// simulation failed; 0 when none was simulated.
  auto runbooks_failed() const -> std::size_t {
    std::size_t n = 0;
    for (const auto& op : operations) n += op.simulation && !op.simulation->passed() ? 1 : 0;
    for (const auto& c : changes) n += c.simulation && !c.simulation->passed() ? 1 : 0;
    return n;
  }
};

/// Returns the steps that carry change c of plan p out: its operation's (an
/// operation's changes share one runbook: a replacement cluster moves every
/// range at once, and its changes have no steps of their own), or c's own for
/// a change no operation makes (a requested range, a DNS address put back).
inline auto steps_of(const plan_result& p, const plan_change& c) -> const std::vector<migration_step>& {
  return c.operation ? p.operations[*c.operation].steps : c.steps;
}

/// Returns the simulation of the runbook whose steps steps_of(p, c) returns.
inline auto simulation_of(const plan_result& p, const plan_change& c) -> const std::optional<simulation_result>& {
  return c.operation ? p.operations[*c.operation].simulation : c.simulation;
}

/// Plans the cheapest renumbering that leaves f without errors.
///
/// Every error pair (and, with fix_latent, every latent pair) must lose one
/// side; ranges that break a rule alone (a reserved block, a service range
/// Kubernetes refuses, a pod range too small for its nodes) must move. Among
/// the choices that do this, the plan takes the one of least total cost (per
/// role; pinned ranges cannot move), then the one that changes fewer owners,
/// then the one that keeps earlier-declared ranges in place; the search is
/// exact per connected group of conflicts (`optimal` says whether every group
/// finished within its budget). New ranges keep their length unless capacity
/// needs more or a rule needs less, are aligned, come from the role's pools by
/// best fit, and avoid every range of the fleet (old or new, so each move is
/// transition-safe), the reserved and avoided blocks, and the well-known
/// defaults that would collide again. Requested ranges (`pods: /16`, `auto`)
/// are allocated the same way. Deterministic: the same input gives the same plan.
/// What it cannot do is in problems, bad settings are in diagnostics; it throws
/// limit_error when the fleet, or the fleet as planned, has more findings than
/// options.check.max_findings. Thread-safe for concurrent calls on shared inputs.
auto plan(const fleet& f, const catalog& c, const plan_options& options = {}) -> plan_result;

/// Returns the findings of f as plan() judges them: check() with options.check,
/// options.triage applied. What a written plan is checked against.
auto plan_check(const fleet& f, const catalog& c, const plan_options& options = {}) -> std::vector<finding>;

/// Returns f with the plan's changes applied: moved ranges replaced, requested
/// ranges added, DNS addresses updated, withdrawn ranges added to their
/// connections' `withdrawn`, what-if connections not added.
/// Precondition: p is a plan of f.
auto apply_plan(const fleet& f, const plan_result& p) -> fleet;

}  // namespace cidrcheck
