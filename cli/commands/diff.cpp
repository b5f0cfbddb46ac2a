// cidrcheck diff OLD NEW | diff --rev REV [FLEET...]: what a change to a fleet
// adds and removes, the check a pull request wants.

#include "analysis.hpp"
#include "html_extras.hpp"
#include "app.hpp"
#include "atomic_file.hpp"
#include "git.hpp"

#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <algorithm>
#include <iostream>
#include <unordered_set>

namespace po = boost::program_options;

namespace cidrcheck::cli {

namespace {

constexpr std::string_view diff_description =
    "Checks two versions of a fleet, with the same configuration, and reports the\n"
    "findings the change adds (in the new version) and removes (from the old one).\n"
    "Findings are matched by fingerprint, which does not depend on lines, so moving\n"
    "text adds nothing. With --rev, the old version is each FLEET file (or each input\n"
    "of .cidrcheck.yaml) as it was at git revision REV; a file that did not exist\n"
    "there is new. Each version's own suppressions apply to it. An added finding\n"
    "points at the range the change added or renumbered, where it has one.\n"
    "\n"
    "The reports show what the change adds; text, json and markdown also list what it\n"
    "removes. Exit codes: 0 the change adds nothing at or above --fail-on, 1 it does,\n"
    "2 a version cannot be analysed (or REV is no commit), 3 internal error.";

// Every finding of `from` whose fingerprint `other` lacks.
auto missing_from(const analysis& from, const analysis* other) -> std::pair<std::vector<finding>, std::vector<std::string>> {
  std::unordered_set<std::string> present;
  if (other) present.insert(other->fingerprints.begin(), other->fingerprints.end());
  std::pair<std::vector<finding>, std::vector<std::string>> out;
  for (std::size_t k = 0; k < from.triaged.findings.size(); ++k) {
    if (present.count(from.fingerprints[k]) != 0) continue;
    out.first.push_back(from.triaged.findings[k]);
    out.second.push_back(from.fingerprints[k]);
  }
  return out;
}

// Loads the old version from git: nullopt when no file existed at rev (an
// empty fleet); throws usage_error when rev is no commit.
struct old_version {
  std::optional<fleet_load_result> loaded;
  bool failed = false;
};

auto load_at_revision(const std::string& rev, const std::vector<std::string>& files, const run_settings& s,
                      const std::string& help) -> old_version {
  if (rev.empty() || rev[0] == '-' || !is_git_commit(rev)) {
    throw usage_error("--rev '" + rev + "' is no commit of a git repository around the working directory", help);
  }
  fleet_loader loader(s.cat, s.limits);
  bool any = false;
  for (const auto& file : files) {
    auto read = read_at_revision(rev, file, s.limits.max_file_bytes);
    if (!read.error.empty()) std::cerr << rev << ":" << file << ": error: " << read.error << "\n";
    if (read.failed) return {std::nullopt, true};
    if (!read.text) continue;
    loader.add_text(*read.text, rev + ":" + file);
    any = true;
  }
  if (!any) return {};
  return {loader.finish(), false};
}

// Points each added finding at a range the change added (or renumbered) when
// its first range was already there: that is the line a pull request touches,
// and the one its review shows annotations on.
void point_at_changes(std::vector<finding>& added, const fleet& after, const fleet* before) {
  std::unordered_set<std::string> old_ranges;
  if (before) {
    for (const auto& r : before->ranges) old_ranges.insert(entity_id(*before, r) + " " + r.cidr.to_string());
  }
  auto is_old = [&](std::uint32_t k) {
    return old_ranges.count(entity_id(after, after.ranges[k]) + " " + after.ranges[k].cidr.to_string()) != 0;
  };
  for (auto& x : added) {
    if (x.ranges.size() < 2 || !is_old(x.ranges.front())) continue;
    auto changed = std::find_if_not(x.ranges.begin(), x.ranges.end(), is_old);
    if (changed != x.ranges.end()) std::iter_swap(x.ranges.begin(), changed);
  }
}

}  // namespace

auto diff_interfaces() -> std::vector<command_interface> {
  std::vector<command_interface> out(1);
  auto& c = out[0];
  c.name = "diff";
  c.summary = "the findings a change to a fleet adds and removes";
  c.usage = "diff [OPTIONS] OLD NEW | diff --rev REV [OPTIONS] [FLEET...]";
  c.description = diff_description;
  c.options.add_options()
    ("help,h", "show this help and exit")
    ("rev", po::value<std::string>()->value_name("REV"), "compare with the fleet files as they were at git revision REV");
  add_report_options(c.options, c.values);
  add_limit_options(c.options);
  add_findings_limit_option(c.options);
  c.operands = operand_kind::files;
  return out;
}

auto run_diff(std::span<const std::string> args) -> int {
  const auto c = diff_interfaces().front();
  auto vm = parse_command(args, c);
  if (vm.count("help")) {
    print_help(c);
    return exit_ok;
  }
  auto settings = resolve_settings(vm, c.name);
  if (!settings) return exit_trouble;
  auto given = operands(vm);
  std::optional<analysis> before, after;
  std::string old_name;
  if (vm.count("rev")) {
    const auto& rev = vm["rev"].as<std::string>();
    auto files = fleet_inputs(given, settings->cfg, c.name);
    for (const auto& t : settings->targets) refuse_input_as_output(t.path, files, c.name);
    auto old = load_at_revision(rev, files, *settings, c.name);
    if (old.failed) return exit_trouble;
    if (old.loaded) {
      before = analyse(std::move(*old.loaded), *settings);
      if (!before) return exit_trouble;
    }
    after = analyse(load_fleet(files, settings->cat, settings->limits), *settings);
    old_name = rev;
  } else {
    if (given.size() != 2) throw usage_error("diff takes two fleet files, OLD and NEW (or --rev REV)", c.name);
    for (const auto& t : settings->targets) refuse_input_as_output(t.path, given, c.name);
    before = analyse(load_fleet(std::span(given).first(1), settings->cat, settings->limits), *settings);
    if (!before) return exit_trouble;
    after = analyse(load_fleet(std::span(given).last(1), settings->cat, settings->limits), *settings);
    old_name = given[0];
  }
  if (!after) return exit_trouble;

  auto [added, added_fingerprints] = missing_from(*after, before ? &*before : nullptr);
  point_at_changes(added, after->loaded.value, before ? &before->loaded.value : nullptr);
  std::vector<finding> removed;
  std::vector<std::string> removed_fingerprints;
  if (before) std::tie(removed, removed_fingerprints) = missing_from(*before, &*after);
  auto shown = select(added, added_fingerprints, *settings);
  auto removed_shown = select(removed, removed_fingerprints, *settings);
  static const fleet no_fleet;
  finding_list removed_list{before ? before->loaded.value : no_fleet, removed_shown.findings,
                            removed_shown.fingerprints};
  check_report report{.shown = {after->loaded.value, shown.findings, shown.fingerprints},
                      .suppressed = after->triaged.suppressed,
                      .suppressions = after->suppressions,
                      .warnings = after->loaded.diagnostics,
                      .files = after->loaded.files,
                      .below_minimum = shown.below_minimum,
                      .removed = &removed_list,
                      .old_name = old_name};
  // The html report's map and plan are of the new version: what the fleet is after the change.
  html_extras extras;
  if (wants_html(settings->targets)) {
    extras = make_html_extras(*after, *settings);
    extras.attach(report);
  }
  if (!write_reports(settings->targets, report, settings->style)) return exit_trouble;
  return shown.fails ? exit_findings : exit_ok;
}

}  // namespace cidrcheck::cli
