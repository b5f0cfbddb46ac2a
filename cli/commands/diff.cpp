// cidrcheck diff OLD NEW | diff --rev REV [FLEET...]: what a change to a fleet
// adds and removes, the check a pull request wants.

#include "analysis.hpp"
#include "html_extras.hpp"
#include "app.hpp"
#include "atomic_file.hpp"
#include "git.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/fleet/fingerprint.hpp>

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

// The fingerprints of a version's findings: what the other version is compared with.
auto fingerprint_set(const run_result* run) -> std::unordered_set<std::string> {
  if (!run) return {};
  return {run->found.fingerprints.begin(), run->found.fingerprints.end()};
}

// How the old version is read: each input as git has it at rev. Throws
// usage_error when rev is no commit; nullopt before the first commit (a
// pre-commit hook's `--rev HEAD` on a new repository), when every finding is new.
auto git_version(const std::string& rev, const input_limits& limits, const std::string& help)
    -> std::optional<version_reader> {
  if (rev.empty() || rev[0] == '-' || !is_git_commit(rev)) {
    if (!rev.empty() && rev == "HEAD" && repository_without_commits()) return std::nullopt;
    throw usage_error("--rev '" + rev + "' is no commit of a git repository around the working directory", help);
  }
  return version_reader{rev, [rev, max = limits.max_file_bytes](const std::string& path) {
                          auto read = read_at_revision(rev, path, max);
                          source_version out{std::move(read.text), std::move(read.error)};
                          if (read.failed && out.error.empty()) out.error = "git cannot show it at " + rev;
                          return out;
                        }};
}

// Points each added finding at a range the change added (or renumbered) when
// its first range was already there: that is the line a pull request touches,
// and the one its review shows annotations on.
void point_at_changes(std::vector<finding>& findings, std::span<const std::uint32_t> added, const fleet& after,
                      const catalog& c, const fleet* before) {
  std::unordered_set<std::string> old_ranges;
  if (before) {
    for (const auto& r : before->ranges) old_ranges.insert(entity_id(*before, r) + " " + r.cidr.to_string());
  }
  auto is_old = [&](std::uint32_t k) {
    return old_ranges.count(entity_id(after, after.ranges[k]) + " " + after.ranges[k].cidr.to_string()) != 0;
  };
  const overlap_describer describer(after, c);  // builds nothing until a finding needs its text
  for (auto k : added) {
    auto& x = findings[k];
    if (x.ranges.size() < 2 || !is_old(x.ranges.front())) continue;
    auto changed = std::find_if_not(x.ranges.begin(), x.ranges.end(), is_old);
    if (changed == x.ranges.end()) continue;
    // The text names the cheaper side first, as check() ordered them: it is made before the swap.
    describer.describe(x);
    std::iter_swap(x.ranges.begin(), changed);
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
  auto request = run_request_of(vm, c.name);
  const auto settings = report_settings_of(vm, c.name);
  std::vector<std::string> outputs;
  for (const auto& t : settings.targets) outputs.push_back(t.path);
  const auto given = request.inputs;
  // Both versions go through the same run: with --rev, the old one reads the inputs at REV.
  std::optional<run_result> before;
  run_result after;
  std::string old_name;
  if (vm.count("rev")) {
    old_name = vm["rev"].as<std::string>();
    auto version = git_version(old_name, request.limits, c.name);
    after = analyse_run(request);
    if (!accept_run(after.status, after.cfg, after.inputs, outputs, c.name)) {
      print_diagnostics(after.diagnostics);
      return exit_trouble;
    }
    if (version) {
      before = analyse_run(request, &*version);
      if (before->status == run_status::absent) before.reset();
    }
  } else {
    if (given.size() != 2) throw usage_error("diff takes two fleet files, OLD and NEW (or --rev REV)", c.name);
    old_name = given[0];
    auto old_request = request;
    old_request.inputs = {given[0]};
    request.inputs = {given[1]};
    before = analyse_run(old_request);
    if (!accept_run(before->status, before->cfg, given, outputs, c.name)) {
      print_diagnostics(before->diagnostics);
      return exit_trouble;
    }
    after = analyse_run(request);
  }
  // A version that cannot be loaded ends the run with the reports that say why.
  if (before) {
    print_diagnostics(before->diagnostics);
    if (!before->ok()) return report_load_failure(before->loaded, settings);
  }
  print_diagnostics(after.diagnostics);
  if (!after.ok()) return report_load_failure(after.loaded, settings);

  // A finding is added when the old version has no finding of its fingerprint (and removed the other way round).
  auto shown = select(after.found.triaged.findings, after.found.fingerprints, after.policy,
                      fingerprint_set(before ? &*before : nullptr));
  point_at_changes(after.found.triaged.findings, shown.indexes, after.loaded.value, after.judged.cat,
                   before ? &before->loaded.value : nullptr);
  selection removed_shown;
  if (before) {
    removed_shown = select(before->found.triaged.findings, before->found.fingerprints, after.policy,
                           fingerprint_set(&after));
  }
  static const fleet no_fleet;
  finding_list removed_list{before ? before->loaded.value : no_fleet,
                            before ? shown_findings(before->loaded.value, before->judged.cat, before->found, removed_shown)
                                   : findings_view{}};
  check_report report{.shown = {after.loaded.value, shown_findings(after.loaded.value, after.judged.cat, after.found, shown)},
                      .suppressed = after.found.triaged.suppressed,
                      .suppressions = after.judged.suppressions,
                      .diagnostics = after.loaded.diagnostics,
                      .files = after.loaded.files,
                      .below_minimum = shown.below_minimum,
                      .removed = &removed_list,
                      .old_name = old_name};
  // The html report's map and plan are of the new version: what the fleet is after the change.
  html_extras extras;
  if (wants_html(settings.targets)) {
    extras = make_html_extras(after, request);
    extras.attach(report);
  }
  if (!write_reports(settings.targets, report, settings.style)) return exit_trouble;
  return shown.fails ? exit_findings : exit_ok;
}

}  // namespace cidrcheck::cli
