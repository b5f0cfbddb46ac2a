// cidrcheck init: write a commented starter .cidrcheck.yaml.

#include "app.hpp"
#include "atomic_file.hpp"

#include <cidrcheck/io/config_loader.hpp>

#include <filesystem>
#include <iostream>

namespace po = boost::program_options;

namespace cidrcheck::cli {

auto init_interfaces() -> std::vector<command_interface> {
  std::vector<command_interface> out(1);
  auto& c = out[0];
  c.name = "init";
  c.summary = "write a commented starter .cidrcheck.yaml";
  c.usage = "init [--force] [FILE]";
  c.description =
      "Writes a starter configuration, every key commented, to FILE (default\n"
      ".cidrcheck.yaml in the working directory). An existing file is left alone\n"
      "unless --force is given.";
  c.options.add_options()
    ("help,h", "show this help and exit")
    ("force", po::bool_switch(), "replace an existing file");
  c.operands = operand_kind::files;
  return out;
}

auto run_init(std::span<const std::string> args) -> int {
  const auto c = init_interfaces().front();
  auto vm = parse_command(args, c);
  if (vm.count("help")) {
    print_help(c);
    return exit_ok;
  }
  auto files = operands(vm);
  if (files.size() > 1) throw usage_error("init writes one file", c.name);
  std::string path = files.empty() ? std::string(config_file_names[0]) : files[0];
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !vm["force"].as<bool>()) {
    std::cerr << path << ": error: the file exists; keep it, or replace it with 'cidrcheck init --force'\n";
    return exit_trouble;
  }
  auto error = write_file_atomically(path, [](output& out) { out.write(starter_config()); });
  if (!error.empty()) {
    std::cerr << path << ": error: " << error << "\n";
    return exit_trouble;
  }
  std::cerr << "cidrcheck: wrote " << path << "\n";
  return exit_ok;
}

}  // namespace cidrcheck::cli
