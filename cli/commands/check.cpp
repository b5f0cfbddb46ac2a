// cidrcheck [check] FILE...: find the overlaps that break routing in a fleet.

#include "app.hpp"
#include "options.hpp"
#include "output.hpp"
#include "report/report.hpp"

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace cidrcheck::cli {

namespace {

constexpr std::string_view check_description =
    "Reads a fleet (clusters, networks and the connections between them; YAML or JSON,\n"
    "several files are one fleet, '-' is standard input) and reports every overlap\n"
    "that breaks routing, the latent ones that would, and the other rules of\n"
    "'docs/rules.md'.\n"
    "\n"
    "Exit codes: 0 nothing at or above --fail-on, 1 something is, 2 the input cannot\n"
    "be analysed (unreadable, bad YAML, a schema violation, a bad CIDR, an unknown\n"
    "owner in a connection), 3 internal error.";

// Returns the lowest severity that fails the run, or nullopt for "never".
auto parse_fail_on(const std::string& text, const std::string& help) -> std::optional<severity> {
  if (text == "never") return std::nullopt;
  if (auto s = parse_severity(text)) return s;
  throw usage_error("--fail-on must be error, warning, note or never, not '" + text + "'", help);
}

}  // namespace

auto run_check(std::span<const std::string> args) -> int {
  const std::string help = "check";
  std::vector<std::string> files;
  std::string format = "text";
  std::string fail_on = "error";
  fleet_limits limits;
  po::options_description visible("Options");
  visible.add_options()
    ("help,h", "show this help and exit")
    ("format,f", po::value(&format)->value_name("FORMAT")->default_value(format), "report format: text or json")
    ("fail-on", po::value(&fail_on)->value_name("SEVERITY")->default_value(fail_on),
     "exit 1 when a finding is at least this severe: error, warning, note or never");
  add_fleet_limits(visible, limits);
  po::options_description all;
  all.add(visible).add_options()("file", po::value(&files));
  po::positional_options_description pos;
  pos.add("file", -1);
  auto vm = parse_options(args, all, pos, help);
  if (vm.count("help")) {
    print_help("[check] [OPTIONS] FILE...", check_description, visible);
    return exit_ok;
  }
  if (format != "text" && format != "json") throw usage_error("unknown format '" + format + "' (text or json)", help);
  auto threshold = parse_fail_on(fail_on, help);
  if (files.empty()) throw usage_error("no fleet files (use '-' for standard input)", help);

  const catalog& cat = builtin_catalog();
  auto loaded = load_fleet(files, cat, limits);
  for (const auto& d : loaded.diagnostics) std::cerr << format_diagnostic(d);
  if (!loaded.ok()) return exit_trouble;

  auto findings = check(loaded.value, cat);
  output out;
  check_report report{loaded.value, findings, loaded.diagnostics, loaded.files};
  if (format == "json") {
    write_json(out, report);
  } else {
    write_text(out, report);
  }
  if (!out.flush()) return exit_trouble;
  if (!threshold) return exit_ok;
  for (const auto& x : findings) {
    if (x.level >= *threshold) return exit_findings;
  }
  return exit_ok;
}

}  // namespace cidrcheck::cli
