// cidrcheck map FLEET... -o FILE: draw a fleet's address space as SVG.

#include "app.hpp"
#include "options.hpp"
#include "write_file.hpp"

#include <cidrcheck/fleet/check.hpp>
#include <cidrcheck/fleet/map.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/fleet_loader.hpp>

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
    "every bar names its CIDR in a tooltip. The file is written atomically.\n"
    "\n"
    "Exit codes: 0 the map was written, 2 the input cannot be read or drawn (see\n"
    "check), 3 internal error. Findings do not change the exit code.";

}  // namespace

auto run_map(std::span<const std::string> args) -> int {
  const std::string help = "map";
  std::vector<std::string> files, pools;
  std::string output;
  fleet_limits limits;
  map_options options;
  po::options_description visible("Options");
  visible.add_options()
    ("help,h", "show this help and exit")
    ("output,o", po::value(&output)->value_name("FILE")->required(), "the SVG file to write ('-' for standard output)")
    ("pool", po::value(&pools)->value_name("CIDR"),
     "show the free space of this pool; repeat for several (default: the private blocks the fleet uses)")
    ("width", po::value(&options.width)->value_name("PX")->default_value(options.width), "the width of the picture")
    ("max-rows", po::value(&options.max_rows)->value_name("N")->default_value(options.max_rows),
     "refuse fleets with more than N owners with ranges (a larger map is unreadable)")
    ("title", po::value(&options.title)->value_name("TEXT"), "the first line (default: a summary of the fleet)");
  add_fleet_limits(visible, limits);
  po::options_description all;
  all.add(visible).add_options()("file", po::value(&files));
  po::positional_options_description pos;
  pos.add("file", -1);
  auto vm = parse_options(args, all, pos, help);
  if (vm.count("help")) {
    print_help("map [OPTIONS] -o FILE FLEET...", map_description, visible);
    return exit_ok;
  }
  if (files.empty()) throw usage_error("no fleet files (use '-' for standard input)", help);
  if (!(options.width >= 100 && options.width <= 100'000)) throw usage_error("--width must be 100 to 100000 pixels", help);
  for (const auto& text : pools) {
    try {
      options.pools.push_back(prefix::parse(text));
    } catch (const parse_error& e) {
      throw usage_error(std::string("--pool: ") + e.what(), help);
    }
  }

  const catalog& cat = builtin_catalog();
  auto loaded = load_fleet(files, cat, limits);
  for (const auto& d : loaded.diagnostics) std::cerr << format_diagnostic(d);
  if (!loaded.ok()) return exit_trouble;

  auto findings = check(loaded.value, cat);
  fleet_map picture;
  try {
    picture = layout_map(loaded.value, findings, cat, options);
  } catch (const map_error& e) {
    std::cerr << "cidrcheck: error: " << e.what() << "\n";
    return exit_trouble;
  }
  if (auto error = write_file_atomically(output, to_svg(picture)); !error.empty()) {
    std::cerr << "cidrcheck: error: " << (output == "-" ? "" : output + ": ") << error << "\n";
    return exit_trouble;
  }
  return exit_ok;
}

}  // namespace cidrcheck::cli
