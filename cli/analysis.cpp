#include "analysis.hpp"

#include "app.hpp"
#include "atomic_file.hpp"

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/io/catalog_loader.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <system_error>
#include <unistd.h>

namespace po = boost::program_options;

namespace cidrcheck::cli {

namespace {

// --color: the flag wins; then a non-empty NO_COLOR (no-color.org); then
// colour when standard output is a terminal that is not "dumb".
auto use_colour(const std::string& when, const std::string& help) -> bool {
  if (when == "always") return true;
  if (when == "never") return false;
  if (when != "auto") throw usage_error("--color must be auto, always or never, not '" + when + "'", help);
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  const char* term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) == 1 && !(term != nullptr && std::string_view(term) == "dumb");
}

auto parse_threshold(const po::variables_map& vm, const std::string& help) -> std::optional<fail_threshold> {
  if (vm.count("fail-on") == 0) return std::nullopt;
  const auto& text = vm["fail-on"].as<std::string>();
  if (auto t = fail_threshold::parse(text)) return *t;
  throw usage_error("--fail-on must be error, warning, note or never, not '" + text + "'", help);
}

auto parse_minimum(const po::variables_map& vm, const std::string& help) -> std::optional<severity> {
  if (vm.count("min-severity") == 0) return std::nullopt;
  const auto& text = vm["min-severity"].as<std::string>();
  if (auto s = parse_severity(text)) return *s;
  throw usage_error("--min-severity must be error, warning or note, not '" + text + "'", help);
}

}  // namespace

void add_report_options(po::options_description& d, std::vector<value_hint>& values) {
  d.add_options()
    ("format,f", po::value<std::vector<std::string>>()->value_name("FORMAT[=FILE]"),
     "a report: text, json, sarif, github, junit, gitlab (or codeclimate), markdown, checkstyle or html, to "
     "standard output or, with =FILE, to "
     "FILE; repeat for several (default: text)")
    ("fail-on", po::value<std::string>()->value_name("SEVERITY"),
     "exit 1 when a finding is at least this severe: error, warning, note or never (default error)")
    ("min-severity", po::value<std::string>()->value_name("SEVERITY"),
     "report only findings at least this severe: error, warning or note (default note)")
    ("color", po::value<std::string>()->value_name("WHEN")->default_value("auto"),
     "colour the text report: auto (on a terminal, unless NO_COLOR is set), always or never")
    ("quiet,q", po::bool_switch(), "text report: only the compiler-style lines, no hints and no summary");
  add_config_options(d, values);
  std::vector<std::string> formats(std::begin(report_format_names), std::end(report_format_names));
  values.push_back({"format", formats});
  values.push_back({"fail-on", {"error", "warning", "note", "never"}});
  values.push_back({"min-severity", {"error", "warning", "note"}});
  values.push_back({"color", {"auto", "always", "never"}});
}

void add_config_options(po::options_description& d, std::vector<value_hint>& values) {
  d.add_options()
    ("config", po::value<std::string>()->value_name("FILE"),
     "read this configuration file instead of the .cidrcheck.yaml found from the working directory upward")
    ("no-config", po::bool_switch(), "read no configuration file");
  values.push_back({"config", {}});
}

void add_limit_options(po::options_description& d) {
  input_limits limits;
  d.add_options()
    ("max-file-bytes", po::value<std::size_t>()->value_name("N")->default_value(limits.max_file_bytes),
     "refuse input files (fleet files, exports, baselines) larger than N bytes")
    ("max-depth", po::value<std::size_t>()->value_name("N")->default_value(limits.max_depth),
     "refuse YAML nested deeper than N levels")
    ("max-nodes", po::value<std::size_t>()->value_name("N")->default_value(limits.max_nodes),
     "refuse YAML with more than N nodes, aliases counted each time they are used")
    ("max-owners", po::value<std::size_t>()->value_name("N")->default_value(limits.max_owners),
     "refuse fleets with more than N clusters and networks")
    ("max-ranges", po::value<std::size_t>()->value_name("N")->default_value(limits.max_ranges),
     "refuse fleets with more than N ranges")
    ("max-errors", po::value<std::size_t>()->value_name("N")->default_value(limits.max_errors),
     "stop reading after N errors");
}

void add_findings_limit_option(po::options_description& d) {
  d.add_options()
    ("max-findings", po::value<std::size_t>()->value_name("N")->default_value(check_options{}.max_findings),
     "refuse fleets with more than N findings (every overlapping pair is one)");
}

auto limits_of(const po::variables_map& vm) -> input_limits {
  input_limits limits;
  limits.max_file_bytes = vm["max-file-bytes"].as<std::size_t>();
  limits.max_depth = vm["max-depth"].as<std::size_t>();
  limits.max_nodes = vm["max-nodes"].as<std::size_t>();
  limits.max_owners = vm["max-owners"].as<std::size_t>();
  limits.max_ranges = vm["max-ranges"].as<std::size_t>();
  limits.max_errors = vm["max-errors"].as<std::size_t>();
  return limits;
}

auto check_options_of(const po::variables_map& vm) -> check_options {
  check_options options;
  options.max_findings = vm["max-findings"].as<std::size_t>();
  return options;
}

auto run_request_of(const po::variables_map& vm, const std::string& help) -> run_request {
  run_request r;
  r.inputs = operands(vm);
  r.configuration.none = vm["no-config"].as<bool>();
  if (r.configuration.none && vm.count("config")) throw usage_error("--config and --no-config exclude each other", help);
  if (vm.count("config")) r.configuration.file = vm["config"].as<std::string>();
  r.limits = limits_of(vm);
  if (vm.count("max-findings")) r.checking = check_options_of(vm);
  r.fail_on = parse_threshold(vm, help);
  r.min_severity = parse_minimum(vm, help);
  return r;
}

auto report_settings_of(const po::variables_map& vm, const std::string& help) -> report_settings {
  report_settings s;
  s.targets = parse_report_targets(vm.count("format") ? vm["format"].as<std::vector<std::string>>()
                                                      : std::vector<std::string>{},
                                   help);
  s.style.colour = use_colour(vm["color"].as<std::string>(), help);
  s.style.quiet = vm["quiet"].as<bool>();
  return s;
}

void print_diagnostics(std::span<const diagnostic> diagnostics) {
  for (const auto& d : diagnostics) std::cerr << format_diagnostic(d);
}

auto accept_run(run_status status, const config& cfg, std::span<const std::string> inputs,
                std::span<const std::string> outputs, const std::string& help) -> bool {
  // The configuration is an input of this run, never one of its outputs.
  note_input(cfg.file);
  if (status == run_status::configuration_error) return false;
  if (status == run_status::no_inputs) {
    throw usage_error("no fleet files: name them ('-' is standard input), or list them under 'inputs' in "
                      ".cidrcheck.yaml",
                      help);
  }
  for (const auto& path : outputs) refuse_input_as_output(path, inputs, help);
  return true;
}

auto report_load_failure(const fleet_load_result& loaded, const report_settings& s) -> int {
  // An empty fleet, not the part that was read: the report counts nothing it did not check.
  const fleet nothing{};
  check_report report{.shown = {nothing, {}},
                      .suppressed = {},
                      .suppressions = {},
                      .diagnostics = loaded.diagnostics,
                      .files = loaded.files,
                      .load_failed = true,
                      .map_note = "No map: the fleet could not be loaded.",
                      .plan_note = "No plan: the fleet could not be loaded."};
  write_reports(s.targets, report, s.style);
  return exit_trouble;
}

}  // namespace cidrcheck::cli
