// cidrcheck map FLEET... -o FILE: draw a fleet's address space as SVG.

#include "analysis.hpp"
#include "app.hpp"
#include "atomic_file.hpp"
#include "options.hpp"

#include <cidrcheck/fleet/map.hpp>
#include <cidrcheck/io/map_svg.hpp>

#include <iostream>
#include <string>
#include <vector>

namespace po = boost::program_options;

namespace cidrcheck::cli {

namespace {

constexpr std::string_view map_description =
    "Draws the address space of a fleet as an SVG picture: one row per cluster or\n"
    "network with its ranges as bars coloured by role, the overlaps that check\n"
    "reports as red (error) or yellow (latent) bands, and the free space of each pool.\n"
    "Widths grow with the fourth root of a block's size, so small ranges stay visible;\n"
    "every bar names its CIDR in a tooltip. Rule settings and suppressions apply as\n"
    "for check. The file is written atomically.\n"
    "\n"
    "Exit codes: 0 the map was written, 2 the input cannot be read or drawn (see\n"
    "check), 3 internal error. Findings do not change the exit code.";

}  // namespace

auto map_interfaces() -> std::vector<command_interface> {
  std::vector<command_interface> out(1);
  auto& c = out[0];
  const map_options defaults;
  c.name = "map";
  c.summary = "draw a fleet's address space as SVG: ranges by owner and role, overlaps, free space";
  c.usage = "map [OPTIONS] -o FILE [FLEET...]";
  c.description = map_description;
  c.options.add_options()
    ("help,h", "show this help and exit")
    ("output,o", po::value<std::string>()->value_name("FILE"), "the SVG file to write ('-' for standard output)")
    ("pool", po::value<std::vector<std::string>>()->value_name("CIDR"),
     "show the free space of this pool; repeat for several (default: the private blocks the fleet uses)")
    ("width", po::value<double>()->value_name("PX")->default_value(defaults.width), "the width of the picture")
    ("max-rows", po::value<std::size_t>()->value_name("N")->default_value(defaults.max_rows),
     "refuse fleets with more than N owners with ranges (a larger map is unreadable)")
    ("title", po::value<std::string>()->value_name("TEXT"), "the first line (default: a summary of the fleet)");
  add_config_options(c.options, c.values);
  add_limit_options(c.options);
  add_findings_limit_option(c.options);
  c.values.push_back({"output", {}});
  c.operands = operand_kind::sources;
  return out;
}

auto run_map(std::span<const std::string> args) -> int {
  const auto c = map_interfaces().front();
  const std::string& help = c.name;
  auto vm = parse_command(args, c);
  if (vm.count("help")) {
    print_help(c);
    return exit_ok;
  }
  if (!vm.count("output")) throw usage_error("the option '--output' is required: where to write the SVG", help);
  const auto output_path = vm["output"].as<std::string>();
  map_options options;
  options.width = vm["width"].as<double>();
  options.max_rows = vm["max-rows"].as<std::size_t>();
  if (vm.count("title")) options.title = vm["title"].as<std::string>();
  if (!(options.width >= min_map_width && options.width <= max_map_width)) {
    throw usage_error("--width must be " + std::to_string(static_cast<int>(min_map_width)) + " to " +
                          std::to_string(static_cast<int>(max_map_width)) + " pixels",
                      help);
  }
  if (vm.count("pool")) {
    for (const auto& text : vm["pool"].as<std::vector<std::string>>()) {
      options.pools.push_back(parse_prefix_option(text, "--pool", help));
    }
  }

  const auto run = analyse_run(run_request_of(vm, help));
  if (!accept_run(run.status, run.cfg, run.inputs, std::span(&output_path, 1), help)) {
    print_diagnostics(run.diagnostics);
    return exit_trouble;
  }
  print_diagnostics(run.diagnostics);
  if (!run.ok()) return exit_trouble;
  fleet_map picture;
  try {
    picture = layout_map(run.loaded.value, run.found.triaged.findings, run.judged.cat, options);
  } catch (const map_error& e) {
    std::cerr << "cidrcheck: error: " << e.what() << "\n";
    return exit_trouble;
  }
  return write_output(output_path, [&](output& out) { out.write(to_svg(picture)); }) ? exit_ok : exit_trouble;
}

}  // namespace cidrcheck::cli
