#pragma once
// Runbooks: the typed runbook of each operation of a plan (fleet/runbook_step.hpp),
// the facts its steps rely on, and the files `cidrcheck plan --emit DIR` writes
// for each operation (its runbook.md and the objects, configuration and
// commands its steps apply), all rendered from the typed steps by one renderer.
//
// Which runbook an operation gets is a table with one row per operation kind
// of the catalog (runbook_rows); a row reads the cluster's resolved profile
// (fleet/profile.hpp) and never a distribution, CNI or IPAM name.

#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/runbook_step.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {

/// Every fact a runbook can cite, in the order of docs/migration-facts.md,
/// which is their one source (compiled in): id, text, source and status.
auto migration_facts() -> const std::vector<migration_fact>&;

/// The fact with this id. Throws basic_error<std::out_of_range> (a
/// cidrcheck::error) for an id that docs/migration-facts.md does not list (a
/// defect of the runbook citing it).
auto migration_fact_by_id(std::string_view id) -> const migration_fact&;

/// The fact with this id, or nullptr when docs/migration-facts.md does not list it.
auto find_migration_fact(std::string_view id) -> const migration_fact*;

/// The operation kinds the runbook table has a row for, in table order.
auto runbook_rows() -> std::span<const std::string_view>;

/// What is wrong between the catalog's operation kinds and the runbook
/// table's rows: one line per catalog kind without exactly one row, and per row
/// that names no catalog kind. Empty when they agree (the tree test's check;
/// its self-test feeds it a missing and an extra row).
auto runbook_table_problems(std::span<const std::string> catalog_kinds, std::span<const std::string_view> rows)
    -> std::vector<std::string>;

/// The typed runbooks of plan p of fleet f, each on the fleet with the whole
/// plan applied (apply_plan; owners keep their indexes): one per operation, in
/// plan order, its row chosen by the operation's kind (operations that share a
/// maintenance, plan_operation::merged_with, each the one merged runbook of
/// theirs, whose kind joins theirs with '+'), then one per change
/// outside any operation (a range created at a requested size, a DNS address
/// put back in its range). Throws basic_error<std::out_of_range> for an
/// operation kind the table has no row for (a catalog the tree test did not
/// pass). O(changes + steps).
auto plan_runbooks(const fleet& f, const plan_result& p, const catalog& c) -> std::vector<runbook>;

/// The steps of runbook r as people read them (plan's text and JSON reports):
/// each step's prose, commands, facts and the names of the files it applies,
/// rendered by the one renderer from the typed step and the profile of its
/// owner. `planned` is the fleet the runbook was made on.
auto render_steps(const fleet& planned, const runbook& r, const catalog& c) -> std::vector<migration_step>;

/// What runbook r costs in maintenance, in a sentence from its typed steps:
/// the rolls of a separately applied configuration (one per run of edits,
/// config-apply-separate), node rolls, restarts of the pods, and the window in
/// which every node is drained ("1 roll of the cluster to apply its
/// configuration (step 8); every node drained from step 2 until the nodes
/// return at step 9: a window in which workloads are down"). Empty when it
/// has none of them.
auto maintenance_of(const runbook& r) -> std::string;

/// One file of a plan's runbooks, at a path relative to the folder it goes in.
struct runbook_file {
  std::string path;  ///< "01-service-cidr-api-a/runbook.md", "01-service-cidr-api-a/servicecidr.yaml"
  std::string text;
};

/// The runbooks of plan p of fleet f as files: for each runbook of
/// plan_runbooks, in plan order (a runbook shared by merged operations once), a
/// folder "NN-KIND-OWNER" with runbook.md
/// (the simulator's verdict first, from the operation's or change's
/// `simulation`: one line when it passed, a "DO NOT FOLLOW AS WRITTEN" section
/// naming each failing step, check and rule when it failed, a "not run" line
/// when there is none; then the steps, their commands, facts and their
/// sources) and the files its steps
/// apply, each starting with a comment that names the operation and the steps
/// applying it. A step's documents of one name are merged into one file (two
/// pod ranges of one cluster in one kops spec), and so are those of the edits
/// one apply takes effect with (kops: one cluster spec file per roll, named
/// by the run's first edit and written once, its comment naming every edit
/// step). Folder
/// names keep letters, digits, '.', '-' and '_' of the owner's name, at most
/// 64 bytes of it (a longer name is cut and ends in 8 hex digits of its
/// SHA-256, so two names stay two folders); NN keeps them unique.
auto runbook_files(const fleet& f, const plan_result& p, const catalog& c) -> std::vector<runbook_file>;

}  // namespace cidrcheck
