// cidrcheck diff OLD NEW | diff --rev REV [FLEET...]: what a change to a fleet
// adds and removes, the check a pull request wants.

#include "analysis.hpp"
#include "html_extras.hpp"
#include "app.hpp"
#include "atomic_file.hpp"
#include "git.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/import.hpp>

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
// The fingerprints of a version's findings: what the other version is compared with.
auto fingerprint_set(const analysed* a) -> std::unordered_set<std::string> {
  if (!a) return {};
  return {a->found.fingerprints.begin(), a->found.fingerprints.end()};
}

// Loads the old version from git: nullopt when no file existed at rev (an
// empty fleet); throws usage_error when rev is no commit.
struct old_version {
  std::optional<fleet_load_result> loaded;
  bool failed = false;
};

auto load_at_revision(const std::string& rev, const std::vector<std::string>& files, const run_settings& s,
                      const std::string& help) -> old_version {
  if (rev.empty() || rev[0] == '-') {
    throw usage_error("--rev '" + rev + "' is no commit of a git repository around the working directory", help);
  }
  if (!is_git_commit(rev)) {
    // Before the first commit (a pre-commit hook's `--rev HEAD` on a new repository) there is
    // nothing to compare with: every finding is new.
    if (rev == "HEAD" && repository_without_commits()) return {};
    throw usage_error("--rev '" + rev + "' is no commit of a git repository around the working directory", help);
  }
  fleet_loader loader(s.cat, s.limits);
  bool any = false;
  for (const auto& spec : files) {
    // A KIND:FILE source is read at rev by its path, and imported as now.
    auto source = parse_source_spec(spec);
    const auto& file = source.path;
    auto read = read_at_revision(rev, file, s.limits.max_file_bytes);
    if (!read.error.empty()) std::cerr << detail::printable(rev + ":" + file) << ": error: " << read.error << "\n";
    if (read.failed) return {std::nullopt, true};
    if (!read.text) continue;
    if (source.kind) {
      loader.add_import_text(*source.kind, *read.text, rev + ":" + file);
    } else {
      loader.add_text(*read.text, rev + ":" + file);
    }
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
  c.operands = operand_kind::sources;
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
  std::optional<analysed> before, after;
  std::string old_name;
  // A version that cannot be loaded ends the run with the reports that say why.
  if (vm.count("rev")) {
    const auto& rev = vm["rev"].as<std::string>();
    auto files = fleet_inputs(given, settings->cfg, c.name);
    for (const auto& t : settings->targets) refuse_input_as_output(t.path, files, c.name);
    auto old = load_at_revision(rev, files, *settings, c.name);
    if (old.failed) return exit_trouble;
    if (old.loaded) {
      if (!old.loaded->ok()) return report_load_failure(*old.loaded, *settings);
      before = analyse(std::move(*old.loaded), *settings);
    }
    auto loaded = load_fleet(files, settings->cat, settings->limits);
    if (!loaded.ok()) return report_load_failure(loaded, *settings);
    after = analyse(std::move(loaded), *settings);
    old_name = rev;
  } else {
    if (given.size() != 2) throw usage_error("diff takes two fleet files, OLD and NEW (or --rev REV)", c.name);
    for (const auto& t : settings->targets) refuse_input_as_output(t.path, given, c.name);
    auto old_loaded = load_fleet(std::span(given).first(1), settings->cat, settings->limits);
    if (!old_loaded.ok()) return report_load_failure(old_loaded, *settings);
    before = analyse(std::move(old_loaded), *settings);
    auto loaded = load_fleet(std::span(given).last(1), settings->cat, settings->limits);
    if (!loaded.ok()) return report_load_failure(loaded, *settings);
    after = analyse(std::move(loaded), *settings);
    old_name = given[0];
  }
  if (!after) return exit_trouble;

  // A finding is added when the old version has no finding of its fingerprint (and removed the other way round).
  auto shown = select(after->found.triaged.findings, after->found.fingerprints, settings->policy,
                      fingerprint_set(before ? &*before : nullptr));
  point_at_changes(shown.findings, after->loaded.value, before ? &before->loaded.value : nullptr);
  selection removed_shown;
  if (before) {
    removed_shown = select(before->found.triaged.findings, before->found.fingerprints, settings->policy,
                           fingerprint_set(&*after));
  }
  static const fleet no_fleet;
  finding_list removed_list{before ? before->loaded.value : no_fleet, removed_shown.findings,
                            removed_shown.fingerprints};
  check_report report{.shown = {after->loaded.value, shown.findings, shown.fingerprints},
                      .suppressed = after->found.triaged.suppressed,
                      .suppressions = after->judged.suppressions,
                      .diagnostics = after->loaded.diagnostics,
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
