#pragma once
// The one renderer of runbook steps: a typed step and the profile of the
// cluster it acts on become prose, shell commands and files. Nothing else
// writes a runbook's words, commands or files (runbook.cpp lays them out as
// runbook.md and a folder; render_steps gives them to plan's reports).

#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/profile.hpp>
#include <cidrcheck/fleet/runbook_step.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace cidrcheck::detail {

/// A file a step applies: its name in the runbook's folder ("03-servicecidr-services-10-48-0-0-12.yaml",
/// numbered by its step) and its text, without the header comment runbook_files adds.
struct emitted_file {
  std::string name;
  std::string text;
};

/// A step as people read it.
struct rendered_step {
  std::string text;                   ///< prose; commands and names inside `backticks` are ours or quoted
  std::vector<std::string> commands;  ///< shell lines, each one command (emit.hpp)
  std::vector<emitted_file> files;    ///< empty unless files were asked for
  std::vector<std::string> facts;     ///< the step's facts, then those of the profile fields the rendering used
};

/// The run of edits step k of runbook r belongs to, [first, end): the steps of
/// its owner around it that edit a configuration profile p applies separately
/// (distribution_profile::edit_waits_for_apply), which one apply takes effect
/// with; {k, k} (empty) for a step that is no such edit.
auto edit_run(const runbook& r, std::size_t k, const cluster_profile& p) -> std::pair<std::size_t, std::size_t>;

/// Renders step k of runbook r, made on fleet `planned`, with the profile of its
/// owner from catalog c; builds its files only when `with_files` (plans of a
/// million changes render prose alone). An edit of a run (edit_run) names its
/// YAML fragments by the run's first step and, with files, writes the whole
/// run's: one file per apply, which every edit of the run names (runbook_files
/// writes it once). Never throws for names from the input.
auto render_step(const fleet& planned, const catalog& c, const runbook& r, std::size_t k, bool with_files)
    -> rendered_step;

}  // namespace cidrcheck::detail
