// cidrcheck capacity FLEET...: how much of each pool is used and free, and how
// many nodes each cluster's pod ranges can number.

#include "analysis.hpp"
#include "app.hpp"
#include "atomic_file.hpp"
#include "options.hpp"
#include "report/report.hpp"

#include <cidrcheck/fleet/capacity.hpp>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace cidrcheck::cli {

namespace {

constexpr std::string_view capacity_description =
    "Shows how much of each address pool the fleet's ranges use, what is free (the\n"
    "largest free block, and with --fit how many blocks of a size still fit, taken\n"
    "by best fit as `cidrcheck plan` takes them), and how many nodes each cluster's\n"
    "pod ranges can number with its node CIDR mask.\n"
    "\n"
    "Exit codes: 0 the report was written, 2 bad usage or input, 3 internal error.";

// Parses --fit values: lengths, one per flag or comma-separated.
auto parse_lengths(const std::vector<std::string>& texts, const std::string& help) -> std::vector<int> {
  std::vector<int> out;
  for (const auto& text : texts) {
    std::stringstream in(text);
    for (std::string word; std::getline(in, word, ',');) {
      if (!word.empty() && word[0] == '/') word.erase(0, 1);
      int length = -1;
      try {
        std::size_t used = 0;
        length = std::stoi(word, &used);
        if (used != word.size()) length = -1;
      } catch (const std::exception&) {
        length = -1;
      }
      if (length < 0 || length > 128) throw usage_error("--fit: '" + word + "' is no prefix length (0 to 128)", help);
      out.push_back(length);
    }
  }
  return out;
}

}  // namespace

auto capacity_interfaces() -> std::vector<command_interface> {
  std::vector<command_interface> out(1);
  auto& c = out[0];
  c.name = "capacity";
  c.summary = "used and free space per pool, blocks that still fit, node capacity per cluster";
  c.usage = "capacity [OPTIONS] [FLEET...]";
  c.description = capacity_description;
  c.options.add_options()
    ("help,h", "show this help and exit")
    ("pool", po::value<std::vector<std::string>>()->value_name("CIDR"),
     "report this pool; repeat for several (default: the private blocks the fleet uses)")
    ("fit", po::value<std::vector<std::string>>()->value_name("LENGTHS"),
     "count how many blocks of these prefix lengths still fit, e.g. 16,20 (repeatable)")
    ("free", po::bool_switch(), "list every free block of each pool")
    ("format,f", po::value<std::string>()->value_name("FORMAT")->default_value("text"), "text or json")
    ("output,o", po::value<std::string>()->value_name("FILE"), "write to FILE (atomically) instead of standard output");
  add_config_options(c.options, c.values);
  add_limit_options(c.options);
  c.values.push_back({"format", {"text", "json"}});
  c.values.push_back({"output", {}});
  c.operands = operand_kind::sources;
  return out;
}

auto run_capacity(std::span<const std::string> args) -> int {
  const auto c = capacity_interfaces().front();
  const std::string& help = c.name;
  auto vm = parse_command(args, c);
  if (vm.count("help")) {
    print_help(c);
    return exit_ok;
  }
  auto strings = [&](const char* name) {
    return vm.count(name) ? vm[name].as<std::vector<std::string>>() : std::vector<std::string>{};
  };
  const auto format = vm["format"].as<std::string>();
  if (format != "text" && format != "json") throw usage_error("unknown format '" + format + "' (text or json)", help);
  const auto output_path = vm.count("output") ? vm["output"].as<std::string>() : std::string();
  const auto lengths = parse_lengths(strings("fit"), help);
  std::vector<prefix> pools;
  for (const auto& text : strings("pool")) pools.push_back(parse_prefix_option(text, "--pool", help));

  const auto run = load_run(run_request_of(vm, help));
  if (!accept_run(run.status, run.cfg, run.inputs, std::span(&output_path, 1), help)) {
    print_diagnostics(run.diagnostics);
    return exit_trouble;
  }
  print_diagnostics(run.diagnostics);
  if (!run.ok()) return exit_trouble;
  const fleet& f = run.loaded.value;
  const auto& cat = run.judged.cat;

  if (pools.empty()) pools = capacity_pools(f, cat);
  std::vector<pool_summary> summaries;
  std::vector<std::vector<prefix>> free;
  for (const auto& space : pool_usage(f, pools)) {
    summaries.push_back(summarize_pool(space, lengths));
    if (vm["free"].as<bool>()) free.push_back(space.free.prefixes());
  }
  auto clusters = node_capacities(f, cat);
  capacity_report report{f, summaries, lengths, free, clusters, run.loaded.files};
  auto render = [&](output& out) {
    if (format == "json") write_capacity_json(out, report);
    else write_capacity_text(out, report);
  };
  return write_output(output_path, render) ? exit_ok : exit_trouble;
}

}  // namespace cidrcheck::cli
