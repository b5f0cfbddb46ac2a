// cidrcheck plan FLEET...: the cheapest renumbering that leaves the fleet without errors.

#include "analysis.hpp"
#include "app.hpp"
#include "atomic_file.hpp"
#include "options.hpp"
#include "output.hpp"
#include "report/report.hpp"

#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/fleet/plan.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
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
    "Proposes new CIDRs for as few ranges as possible (by cost: services 1, pods 3,\n"
    "network 10) so that the fleet has no errors left, checks that every move is\n"
    "transition-safe, and prints the migration steps of each. Settings come from the\n"
    "fleet file's `plan:` section and these flags (docs/planning.md); rule settings and\n"
    "suppressions from .cidrcheck.yaml and the fleet file apply as for check.\n"
    "\n"
    "Exit codes: 0 the plan leaves no errors (or there is nothing to do), 1 some\n"
    "errors cannot be resolved (the partial plan is still printed), 2 bad usage or\n"
    "input, 3 internal error.";

// Parses "ROLE=VALUE" for --pool and --cost; returns the role indexes it names.
auto split_role(const std::string& text, const std::string& option, const std::string& help)
    -> std::pair<std::vector<std::size_t>, std::string> {
  auto eq = text.find('=');
  if (eq == std::string::npos) throw usage_error(option + " takes ROLE=VALUE, not '" + text + "'", help);
  auto role = text.substr(0, eq);
  auto roles = parse_cluster_roles(role);
  if (!roles) {
    throw usage_error(option + ": unknown role '" + role + "' (network, pods, services or all)" +
                          detail::did_you_mean(role, cluster_role_words),
                      help);
  }
  std::vector<std::size_t> indexes;
  for (auto r : {range_role::network, range_role::pods, range_role::services}) {
    if (roles->has(r)) indexes.push_back(static_cast<std::size_t>(r));
  }
  return {indexes, text.substr(eq + 1)};
}

auto parse_roles(const std::string& text, const std::string& help) -> role_set {
  role_set roles = role_set::none();
  std::stringstream in(text);
  for (std::string word; std::getline(in, word, ',');) {
    auto named = parse_cluster_roles(word);
    if (!named) {
      throw usage_error("--routes: unknown role '" + word + "'" + detail::did_you_mean(word, cluster_role_words), help);
    }
    roles.add(*named);
  }
  return roles;
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
     "text, json, or yaml (the fleet file with the plan applied)")
    ("output,o", po::value<std::string>()->value_name("FILE"), "write to FILE (atomically) instead of standard output")
    ("pool", po::value<std::vector<std::string>>()->value_name("ROLE=CIDR"),
     "where new ranges of a role may come from (repeatable; ROLE network, pods, services or all)")
    ("avoid", po::value<std::vector<std::string>>()->value_name("CIDR"), "space no new range may use (repeatable)")
    ("pin", po::value<std::vector<std::string>>()->value_name("PATTERN"),
     "keep ranges in place: owner or owner/role, '*' matches any text (repeatable)")
    ("cost", po::value<std::vector<std::string>>()->value_name("ROLE=N"),
     "the cost of moving a range of a role (repeatable)")
    ("headroom", po::value<double>()->value_name("F"), "size pod ranges for nodes x F (default 1.25)")
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
  c.operands = operand_kind::files;
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
  if (format != "text" && format != "json" && format != "yaml") {
    throw usage_error("unknown format '" + format + "' (text, json or yaml)", help);
  }
  auto cfg = read_configuration(vm, help);
  if (!cfg) return exit_trouble;
  auto files = fleet_inputs(operands(vm), *cfg, help);
  if (format == "yaml" && files.size() != 1) {
    throw usage_error("--format yaml writes one fleet file: plan a single file", help);
  }
  refuse_input_as_output(output_path, files, help);
  const auto limits = limits_of(vm);
  const auto cat = catalog_for(*cfg);

  plan_options options;
  options.check = check_options_of(vm);
  options.fix_latent = vm["fix-latent"].as<bool>();
  for (const auto& p : strings("pool")) {
    auto [roles, cidr] = split_role(p, "--pool", help);
    for (auto r : roles) options.settings.pools[r].push_back(parse_prefix_option(cidr, "--pool", help));
  }
  for (const auto& a : strings("avoid")) options.settings.avoid.push_back(parse_prefix_option(a, "--avoid", help));
  for (const auto& p : strings("pin")) options.settings.pins.push_back({p, {}});
  for (const auto& flag : strings("cost")) {
    auto [roles, value] = split_role(flag, "--cost", help);
    int cost = 0;
    try {
      cost = std::stoi(value);
    } catch (const std::exception&) {
      throw usage_error("--cost: '" + value + "' is not a whole number", help);
    }
    if (cost < 0) throw usage_error("--cost must not be negative", help);
    for (auto r : roles) options.settings.cost[r] = cost;
  }
  if (vm.count("headroom")) {
    double headroom = vm["headroom"].as<double>();
    if (!(headroom >= 1.0 && headroom <= 100.0)) throw usage_error("--headroom must be from 1 to 100", help);
    options.settings.headroom = headroom;
  }

  // Read the input; for --format yaml keep its text, which the plan is applied to.
  fleet_loader loader(cat, limits);
  std::string original;
  if (format == "yaml") {
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
  auto suppressions = cfg->suppressions;
  suppressions.insert(suppressions.end(), loaded.suppressions.begin(), loaded.suppressions.end());
  options.triage = triage_options{cfg->rules, suppressions, today_utc()};

  auto role_of_connects = parse_roles(vm["routes"].as<std::string>(), help);
  for (const auto& group : strings("connect")) {
    connection link;
    link.via = "what-if";
    link.routes = role_of_connects;
    std::stringstream in(group);
    for (std::string name; std::getline(in, name, ',');) {
      auto k = loaded.value.find_owner(name);
      if (!k) {
        std::vector<std::string_view> names;
        for (const auto& o : loaded.value.owners) names.push_back(o.name);
        throw usage_error("--connect names '" + name + "', which is no cluster or network" +
                              detail::did_you_mean(name, names),
                          help);
      }
      link.members.push_back(*k);
    }
    if (link.members.size() < 2) throw usage_error("--connect needs at least two owners: A,B,...", help);
    options.connect.push_back(std::move(link));
  }

  auto result = plan(loaded.value, cat, options);
  for (const auto& d : result.diagnostics) std::cerr << format_diagnostic(d);

  auto render = [&](output& out) {
    if (format == "yaml") {
      // Pod space an operation adds has no place in the file yet: say so rather than write a file that lacks it.
      for (const auto& added : result.changes) {
        if (added.range || added.request || !added.operation) continue;
        throw usage_error("--format yaml cannot write the " + added.to.to_string() + " pod range that " +
                              result.operations[*added.operation].kind + " adds to " + loaded.value.owners[added.owner].name +
                              " yet; add it to the cluster's pods by hand, or use --format text or json",
                          help);
      }
      auto text = apply_plan_to_text(original, display_name(files[0]), loaded.value, result);
      // The written file must say what the plan says: read it back and check it.
      fleet_loader reread(cat, limits);
      reread.add_text(text, display_name(files[0]));
      auto again = reread.finish();
      bool errors_left = false;
      for (const auto& x : plan_check(again.value, cat, options)) errors_left = errors_left || x.level == severity::error;
      if (!again.ok() || (result.complete() && errors_left && options.connect.empty() && suppressions.empty())) {
        throw std::logic_error("the planned fleet file does not read back clean");
      }
      out.write(text);
    } else if (format == "json") {
      write_plan_json(out, {loaded.value, result, loaded.files});
    } else {
      write_plan_text(out, {loaded.value, result, loaded.files});
    }
  };
  if (!write_output(output_path, render)) return exit_trouble;
  return result.complete() ? exit_ok : exit_findings;
}

}  // namespace cidrcheck::cli
