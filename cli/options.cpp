#include "options.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace cidrcheck::cli {

auto parse_options(std::span<const std::string> args, const po::options_description& options,
                   const po::positional_options_description& positional, const std::string& command_path)
    -> po::variables_map {
  po::variables_map vm;
  try {
    std::vector<std::string> argv(args.begin(), args.end());
    auto parsed = po::command_line_parser(argv)
                      .options(options)
                      .positional(positional)
                      .style(po::command_line_style::default_style ^ po::command_line_style::allow_guessing)
                      .run();
    po::store(parsed, vm);
    if (vm.count("help") == 0) po::notify(vm);
  } catch (const po::error& e) {
    throw usage_error(e.what(), command_path);
  }
  return vm;
}

void add_fleet_limits(po::options_description& options, fleet_limits& limits) {
  options.add_options()
    ("max-file-bytes", po::value(&limits.max_file_bytes)->value_name("N")->default_value(limits.max_file_bytes),
     "refuse fleet files larger than N bytes")
    ("max-depth", po::value(&limits.max_depth)->value_name("N")->default_value(limits.max_depth),
     "refuse YAML nested deeper than N levels")
    ("max-nodes", po::value(&limits.max_nodes)->value_name("N")->default_value(limits.max_nodes),
     "refuse YAML with more than N nodes, aliases counted each time they are used")
    ("max-owners", po::value(&limits.max_owners)->value_name("N")->default_value(limits.max_owners),
     "refuse fleets with more than N clusters and networks")
    ("max-ranges", po::value(&limits.max_ranges)->value_name("N")->default_value(limits.max_ranges),
     "refuse fleets with more than N ranges");
}

void print_help(std::string_view usage, std::string_view description, const po::options_description& options) {
  std::cout << "Usage: cidrcheck " << usage << "\n\n" << description << "\n\n" << options;
}

}  // namespace cidrcheck::cli
