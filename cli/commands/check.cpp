// cidrcheck [check] FILE...: find the overlaps that break routing in a fleet.

#include "analysis.hpp"
#include "app.hpp"
#include "atomic_file.hpp"
#include "baseline.hpp"
#include "html_extras.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace cidrcheck::cli {

namespace {

constexpr std::string_view check_description =
    "Reads a fleet (clusters, networks and the connections between them; YAML or JSON,\n"
    "several files are one fleet, '-' is standard input, a directory stands for its\n"
    "*.yaml and *.yml files, and KIND:FILE is another tool's export, read as `cidrcheck\n"
    "import` reads it) and reports every overlap that breaks routing, the latent ones\n"
    "that would, and the other rules ('cidrcheck rules' lists them). Without FLEET,\n"
    "reads the inputs of .cidrcheck.yaml.\n"    "\n"
    "Exit codes: 0 nothing at or above --fail-on, 1 something is, 2 the input cannot\n"
    "be analysed (unreadable, bad YAML, a schema violation, a bad CIDR, an unknown\n"
    "owner in a connection, a bad configuration or baseline), 3 internal error.";

}  // namespace

auto check_interfaces() -> std::vector<command_interface> {
  std::vector<command_interface> out(1);
  auto& c = out[0];
  c.name = "check";
  c.summary = "find the overlaps that break routing in a fleet (the default command)";
  c.usage = "[check] [OPTIONS] [FLEET...]";
  c.description = check_description;
  c.options.add_options()("help,h", "show this help and exit");
  add_report_options(c.options, c.values);
  c.options.add_options()
    ("baseline", po::value<std::string>()->value_name("FILE"),
     "leave out the findings of this JSON report of an earlier run: only new findings fail")
    ("write-baseline", po::value<std::string>()->value_name("FILE"),
     "write every finding of this run to FILE, a JSON report to pass to --baseline later");
  add_limit_options(c.options);
  add_findings_limit_option(c.options);
  c.values.push_back({"baseline", {}});
  c.values.push_back({"write-baseline", {}});
  c.operands = operand_kind::sources;
  return out;
}

auto run_check(std::span<const std::string> args) -> int {
  const auto c = check_interfaces().front();
  auto vm = parse_command(args, c);
  if (vm.count("help")) {
    print_help(c);
    return exit_ok;
  }
  auto request = run_request_of(vm, c.name);
  const auto settings = report_settings_of(vm, c.name);
  std::vector<std::string> outputs;
  for (const auto& t : settings.targets) outputs.push_back(t.path);
  if (vm.count("write-baseline")) outputs.push_back(vm["write-baseline"].as<std::string>());
  // The baseline is an input, except to `--baseline B --write-baseline B`, which
  // refreshes it in place (the old entries and the new ones) by design.
  if (vm.count("baseline") && !(vm.count("write-baseline") && same_file(vm["baseline"].as<std::string>(),
                                                                          vm["write-baseline"].as<std::string>()))) {
    note_input(vm["baseline"].as<std::string>());
  }
  refuse_shared_outputs(outputs, c.name);
  if (vm.count("baseline")) {
    auto read = read_baseline(vm["baseline"].as<std::string>(), request.limits);
    if (!read) return exit_trouble;
    request.baseline.assign(read->begin(), read->end());
  }

  const auto run = analyse_run(request);
  if (!accept_run(run.status, run.cfg, run.inputs, outputs, c.name)) {
    print_diagnostics(run.diagnostics);
    return exit_trouble;
  }
  print_diagnostics(run.diagnostics);
  if (!run.ok()) return report_load_failure(run.loaded, settings);
  const fleet& f = run.loaded.value;
  check_report report{.shown = {f, run.shown_findings()},
                      .suppressed = run.found.triaged.suppressed,
                      .suppressions = run.judged.suppressions,
                      .diagnostics = run.loaded.diagnostics,
                      .files = run.loaded.files,
                      .baselined = run.shown.baselined,
                      .below_minimum = run.shown.below_minimum};
  html_extras extras;
  if (wants_html(settings.targets)) {
    extras = make_html_extras(run, request);
    extras.attach(report);
  }
  bool written = true;
  if (vm.count("write-baseline")) {
    // Every finding of the run: a later --baseline then hides exactly these.
    check_report all{.shown = {f, run.all_findings()},
                     .suppressed = report.suppressed,
                     .suppressions = report.suppressions,
                     .diagnostics = report.diagnostics,
                     .files = report.files};
    written = write_output(vm["write-baseline"].as<std::string>(), [&](output& out) { write_json(out, all); });
  }
  written = write_reports(settings.targets, report, settings.style) && written;
  if (!written) return exit_trouble;
  return run.shown.fails ? exit_findings : exit_ok;
}

}  // namespace cidrcheck::cli
