// cidrcheck plan FLEET...: the cheapest renumbering that leaves the fleet without errors.

#include "analysis.hpp"
#include "app.hpp"
#include "atomic_file.hpp"
#include "options.hpp"
#include "output.hpp"
#include "report/report.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/io/read_file.hpp>

#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace cidrcheck::cli {

namespace {

constexpr std::string_view plan_description =
    "Proposes the cheapest operations (by the catalog's costs and --cost) that leave\n"
    "the fleet without errors, checks that every move is transition-safe, and\n"
    "prints the migration steps of each. Settings come from the\n"
    "fleet file's `plan:` section and these flags (docs/planning.md); rule settings and\n"
    "suppressions from .cidrcheck.yaml and the fleet file apply as for check.\n"
    "\n"
    "Exit codes: 0 the plan leaves no errors (or there is nothing to do), 1 some\n"
    "errors cannot be resolved (the partial plan is still printed), 2 bad usage or\n"
    "input, 3 internal error.";

// Splits "KEY=VALUE" (--pool ROLE=CIDR, --cost KEY=N) at the last '='; the library judges both halves.
auto split_role(const std::string& text, const std::string& option, const std::string& help)
    -> std::pair<std::string, std::string> {
  auto eq = text.rfind('=');
  if (eq == std::string::npos) {
    throw usage_error(option + " takes " + (option == "--cost" ? "KEY" : "ROLE") + "=VALUE, not '" + text + "'", help);
  }
  return {text.substr(0, eq), text.substr(eq + 1)};
}

// Splits "a,b,c" (--connect, --routes).
auto split_list(const std::string& text) -> std::vector<std::string> {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string word; std::getline(in, word, ',');) out.push_back(word);
  return out;
}

// Splits --named-pool's NAME=CIDR[,CIDR...][@KEY=VALUE[,KEY=VALUE...]]; the library judges the parts.
auto split_named_pool(const std::string& text, const std::string& help) -> named_pool_request {
  const std::string form = "--named-pool takes NAME=CIDR[,CIDR...][@KEY=VALUE,...], not '" + detail::printable(text) + "'";
  auto eq = text.find('=');
  if (eq == std::string::npos) throw usage_error(form, help);
  named_pool_request out;
  out.name = text.substr(0, eq);
  auto at = text.find('@', eq);
  out.cidrs = split_list(text.substr(eq + 1, at == std::string::npos ? std::string::npos : at - eq - 1));
  if (at == std::string::npos) return out;
  for (const auto& item : split_list(text.substr(at + 1))) {
    auto sep = item.find('=');
    if (sep == std::string::npos) throw usage_error(form, help);
    out.selector.emplace_back(item.substr(0, sep), item.substr(sep + 1));
  }
  return out;
}

}  // namespace

auto plan_interfaces() -> std::vector<command_interface> {
  std::vector<command_interface> out(1);
  auto& c = out[0];
  c.name = "plan";
  c.summary = "propose the cheapest renumbering that leaves no errors, with migration steps";
  c.usage = "plan [OPTIONS] [FLEET...]";
  c.description = plan_description;
  c.options.add_options()
    ("help,h", "show this help and exit")
    ("format,f", po::value<std::string>()->value_name("FORMAT")->default_value("text"),
     "text, json, or yaml (the fleet file with the plan applied; for several sources or imports, an overlay "
     "of the changes to check beside them)")
    ("output,o", po::value<std::string>()->value_name("FILE"), "write to FILE (atomically) instead of standard output")
    ("emit", po::value<std::string>()->value_name("DIR"),
     "also write each operation's runbook to DIR: a folder per operation with runbook.md and the files its steps "
     "apply (atomically; DIR must be missing or empty)")
    ("force", po::bool_switch(), "let --emit replace a DIR that is not empty")
    ("pool", po::value<std::vector<std::string>>()->value_name("ROLE=CIDR"),
     "where new ranges of a role may come from (repeatable; ROLE network, pods, services or all)")
    ("named-pool", po::value<std::vector<std::string>>()->value_name("NAME=CIDRS@FOR"),
     "a named pool as the fleet file's `plan: pools:` writes one: NAME=CIDR,... then, if any, @KEY=VALUE,... "
     "(repeatable; given any, they replace the file's named pools): new ranges of the owners whose labels are every "
     "KEY=VALUE come from its CIDRs; KEY owner is a name pattern, role a role (repeatable) (docs/planning.md)")
    ("avoid", po::value<std::vector<std::string>>()->value_name("CIDR"), "space no new range may use (repeatable)")
    ("pin", po::value<std::vector<std::string>>()->value_name("PATTERN"),
     "keep ranges in place: owner or owner/role, '*' matches any text (repeatable)")
    ("cost", po::value<std::vector<std::string>>()->value_name("KEY=N"),
     "the base cost of operations (repeatable): KEY a role (network, pods, services, all: its in-place kinds), an "
     "operation kind (replacement-cluster, ...), or either after owner:NAME/ or distribution:NAME/ (owner:NAME alone: "
     "every kind); the most specific wins (docs/planning.md)")
    ("headroom", po::value<std::string>()->value_name("F"), "size pod ranges for nodes x F (default 1.25)")
    ("connect", po::value<std::vector<std::string>>()->value_name("A,B,..."),
     "plan as if these owners were connected (repeatable)")
    ("routes", po::value<std::string>()->value_name("ROLES")->default_value("all"),
     "what the --connect links carry: network,pods,services or all")
    ("fix-latent", po::bool_switch(), "also remove latent overlaps");
  add_config_options(c.options, c.values);
  add_limit_options(c.options);
  add_findings_limit_option(c.options);
  c.values.push_back({"format", {"text", "json", "yaml"}});
  c.values.push_back({"output", {}});
  c.values.push_back({"emit", {}});
  c.operands = operand_kind::sources;
  return out;
}

auto run_plan(std::span<const std::string> args) -> int {
  const auto c = plan_interfaces().front();
  auto vm = parse_command(args, c);
  if (vm.count("help")) {
    print_help(c);
    return exit_ok;
  }
  const std::string& help = c.name;
  auto strings = [&](const char* name) {
    return vm.count(name) ? vm[name].as<std::vector<std::string>>() : std::vector<std::string>{};
  };
  const auto format = vm["format"].as<std::string>();
  const auto output_path = vm.count("output") ? vm["output"].as<std::string>() : std::string();
  const auto emit_dir = vm.count("emit") ? vm["emit"].as<std::string>() : std::string();
  if (vm["force"].as<bool>() && emit_dir.empty()) throw usage_error("--force goes with --emit DIR", help);
  if (vm.count("emit") && emit_dir.empty()) throw usage_error("--emit takes a folder, not an empty name", help);
  if (format != "text" && format != "json" && format != "yaml") {
    throw usage_error("unknown format '" + format + "' (text, json or yaml)", help);
  }
  if (!emit_dir.empty()) {
    if (auto why = directory_problem(emit_dir, vm["force"].as<bool>(), {&output_path, 1}); !why.empty()) {
      throw usage_error("--emit " + detail::printable(emit_dir) + " " + why, help);
    }
  }

  // The options as given; the library validates them (plan_request.hpp) and runs the plan.
  plan_run_request request;
  request.run = run_request_of(vm, help);
  request.yaml = format == "yaml";
  if (!output_path.empty()) request.yaml_name = display_name(output_path);
  request.runbooks = !emit_dir.empty();
  auto& options = request.options;
  options.fix_latent = vm["fix-latent"].as<bool>();
  for (const auto& p : strings("pool")) options.pools.push_back(split_role(p, "--pool", help));
  for (const auto& p : strings("named-pool")) options.named_pools.push_back(split_named_pool(p, help));
  options.avoid = strings("avoid");
  options.pins = strings("pin");
  for (const auto& p : strings("cost")) options.costs.push_back(split_role(p, "--cost", help));
  if (vm.count("headroom")) options.headroom = vm["headroom"].as<std::string>();
  options.routes = split_list(vm["routes"].as<std::string>());
  for (const auto& group : strings("connect")) options.connect.push_back(split_list(group));
  plan_run_result run;
  try {
    run = plan_run(request);
  } catch (const plan_option_error& e) {
    throw usage_error(e.what(), help);
  }
  if (!accept_run(run.status, run.cfg, run.inputs, std::span(&output_path, 1), help)) {
    print_diagnostics(run.diagnostics);
    return exit_trouble;
  }
  print_diagnostics(run.diagnostics);
  if (!run.ok()) return exit_trouble;
  const auto& planned = *run.plan;

  auto render = [&](output& out) {
    if (format == "yaml") {
      out.write(planned.yaml->text);
    } else if (format == "json") {
      write_plan_json(out, {run.loaded.value, planned.result, run.loaded.files});
    } else {
      write_plan_text(out, {run.loaded.value, planned.result, run.loaded.files});
    }
  };
  if (!write_output(output_path, render)) return exit_trouble;
  if (!emit_dir.empty()) {
    std::vector<folder_file> folder;
    for (const auto& f : planned.runbooks) folder.push_back({f.path, f.text});
    if (auto why = write_directory_atomically(emit_dir, folder, vm["force"].as<bool>()); !why.empty()) {
      std::cerr << detail::printable(emit_dir) << ": error: " << why << "\n";
      return exit_trouble;
    }
  }
  // A runbook the simulator refuses is something found, as a problem left is:
  // a CI job that gates on the plan must not pass it (docs/cli.md).
  const auto failed = planned.result.runbooks_failed();
  if (failed != 0 && format == "yaml") {
    std::cerr << "cidrcheck: warning: " << failed << (failed == 1 ? " runbook" : " runbooks")
              << " of the plan failed the migration simulation; `--format text` or `json` names the failures\n";
  }
  return planned.result.complete() && failed == 0 ? exit_ok : exit_findings;
}

}  // namespace cidrcheck::cli
