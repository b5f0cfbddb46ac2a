// cidrcheck plan FLEET...: the cheapest renumbering that leaves the fleet without errors.

#include "analysis.hpp"
#include "app.hpp"
#include "atomic_file.hpp"
#include "options.hpp"
#include "output.hpp"
#include "report/report.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/fleet/runbook.hpp>
#include <cidrcheck/plan_request.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/import.hpp>
#include <cidrcheck/io/plan_writer.hpp>
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
  auto cfg = read_configuration(vm, help);
  if (!cfg) return exit_trouble;
  auto files = fleet_inputs(operands(vm), *cfg, help);
  // One fleet file is patched in place; several sources, or an import, get an
  // overlay: the changes alone, which check reads beside the same sources.
  bool overlay = format == "yaml" && (files.size() != 1 || parse_source_spec(files[0]).kind.has_value());
  refuse_input_as_output(output_path, files, help);
  if (!emit_dir.empty()) {
    if (auto why = directory_problem(emit_dir, vm["force"].as<bool>(), {&output_path, 1}); !why.empty()) {
      throw usage_error("--emit " + detail::printable(emit_dir) + " " + why, help);
    }
  }
  const auto limits = limits_of(vm);

  // The options as given; the library validates them (plan_request.hpp).
  plan_request request;
  request.checking = check_options_of(vm);
  request.fix_latent = vm["fix-latent"].as<bool>();
  for (const auto& p : strings("pool")) request.pools.push_back(split_role(p, "--pool", help));
  request.avoid = strings("avoid");
  request.pins = strings("pin");
  for (const auto& p : strings("cost")) request.costs.push_back(split_role(p, "--cost", help));
  if (vm.count("headroom")) request.headroom = vm["headroom"].as<std::string>();
  request.routes = split_list(vm["routes"].as<std::string>());
  for (const auto& group : strings("connect")) request.connect.push_back(split_list(group));
  plan_options options;
  try {
    options = plan_options_for(request);
  } catch (const plan_option_error& e) {
    throw usage_error(e.what(), help);
  }

  // Read the input; for --format yaml keep its text, which the plan is applied to.
  auto judged = judgement_for(*cfg, {});
  fleet_loader loader(judged.cat, limits);
  std::string original;
  if (format == "yaml" && !overlay) {
    auto file = read_file(files[0], limits.max_file_bytes, "max-file-bytes");
    if (!file.error.empty()) {
      std::cerr << display_name(files[0]) << ": error: " << file.error << "\n";
      return exit_trouble;
    }
    original = std::move(file.text);
    loader.add_text(original, display_name(files[0]));
  } else {
    for (const auto& f : files) loader.add_source(f);
  }
  auto loaded = loader.finish();
  for (const auto& d : loaded.diagnostics) std::cerr << format_diagnostic(d);
  if (!loaded.ok()) return exit_trouble;

  // Findings are judged as `check` judges them: rule settings, then suppressions.
  judged.suppressions.insert(judged.suppressions.end(), loaded.suppressions.begin(), loaded.suppressions.end());
  const auto& cat = judged.cat;
  const auto& suppressions = judged.suppressions;
  try {
    options = plan_options_for(loaded.value, request, judged);
  } catch (const plan_option_error& e) {
    throw usage_error(e.what(), help);
  }

  auto result = plan(loaded.value, cat, options);
  for (const auto& d : result.diagnostics) std::cerr << format_diagnostic(d);

  // For --format yaml, the planned file, read back before anything is written.
  std::string text;
  if (format == "yaml") {
    fleet_loader reread(cat, limits);
    if (overlay) {
      std::vector<std::string> header{"The changes `cidrcheck plan` proposes for the fleet read from:"};
      for (const auto& s : files) header.push_back("  " + s);
      header.push_back("Check the planned fleet with the same sources and this file after them:");
      header.push_back("  cidrcheck check SOURCES... THIS-FILE");
      text = write_plan_overlay(loaded.value, result, header);
      for (const auto& f : files) reread.add_source(f);
      reread.add_text(text, output_path.empty() ? "<plan>" : display_name(output_path));
    } else {
      try {
        text = apply_plan_to_text(original, display_name(files[0]), loaded.value, result);
      } catch (const plan_text_error& e) {  // a construct of the file the plan cannot rewrite
        std::cerr << format_diagnostic({severity::error, diag::cannot_rewrite, e.what(), e.where(), {}});
        return exit_trouble;
      }
      reread.add_text(text, display_name(files[0]));
    }
    // The written file must say what the plan says: read it back and check it.
    auto again = reread.finish();
    bool errors_left = false;
    for (const auto& x : plan_check(again.value, cat, options)) errors_left = errors_left || x.level == severity::error;
    if (!again.ok() || (result.complete() && errors_left && options.connect.empty() && suppressions.empty())) {
      throw std::logic_error("the planned fleet file does not read back clean");
    }
  }
  auto render = [&](output& out) {
    if (format == "yaml") {
      out.write(text);
    } else if (format == "json") {
      write_plan_json(out, {loaded.value, result, loaded.files});
    } else {
      write_plan_text(out, {loaded.value, result, loaded.files});
    }
  };
  if (!write_output(output_path, render)) return exit_trouble;
  if (!emit_dir.empty()) {
    std::vector<folder_file> folder;
    for (auto& f : runbook_files(loaded.value, result, cat)) folder.push_back({std::move(f.path), std::move(f.text)});
    if (auto why = write_directory_atomically(emit_dir, folder, vm["force"].as<bool>()); !why.empty()) {
      std::cerr << detail::printable(emit_dir) << ": error: " << why << "\n";
      return exit_trouble;
    }
  }
  return result.complete() ? exit_ok : exit_findings;
}

}  // namespace cidrcheck::cli
