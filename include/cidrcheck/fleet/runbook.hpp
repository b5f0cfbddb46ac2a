#pragma once
// Runbooks: the facts migration steps rely on, and the files `cidrcheck plan
// --emit DIR` writes for each operation of a plan (its runbook.md and the
// objects, configuration and flags its steps apply).

#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/plan.hpp>

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

/// One file of a plan's runbooks, at a path relative to the folder it goes in.
struct runbook_file {
  std::string path;  ///< "01-service-cidr-api-a/runbook.md", "01-service-cidr-api-a/servicecidr.yaml"
  std::string text;
};

/// The runbooks of plan p of fleet f: for each operation (and each change
/// outside an operation, such as a range created at a requested size), in plan
/// order, a folder "NN-KIND-OWNER" with runbook.md (steps, facts and their
/// sources) and the files its steps apply, each starting with a comment that
/// names the operation and the step applying it. A runbook with a fallback
/// (the window runbook of a 1.27-1.28 cluster that serves no ServiceCIDR API)
/// holds it as FOLDER/runbook.md with its own files, named as a file by the
/// step that sends the operator there. Folder names keep letters, digits, '.',
/// '-' and '_' of the owner's name; NN keeps them unique.
auto runbook_files(const fleet& f, const plan_result& p) -> std::vector<runbook_file>;

}  // namespace cidrcheck
