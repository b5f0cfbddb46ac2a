#include "app.hpp"

#include "output.hpp"

#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/io/catalog_loader.hpp>
#include <cidrcheck/io/config_loader.hpp>
#include <cidrcheck/limit_error.hpp>
#include <cidrcheck/version.hpp>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>
#include <vector>

namespace cidrcheck::cli {

namespace {

auto version_interfaces() -> std::vector<command_interface> {
  std::vector<command_interface> out(1);
  out[0].name = "version";
  out[0].summary = "print the version";
  out[0].usage = "version";
  out[0].description =
      "Prints the version of cidrcheck (also: cidrcheck --version) and the date of its\n"
      "built-in catalog: the distributions' defaults and well-known blocks as of that day.";
  out[0].options.add_options()("help,h", "show this help and exit");
  return out;
}

auto run_version(std::span<const std::string> args) -> int {
  auto vm = parse_command(args, version_interfaces().front());
  if (vm.count("help")) {
    print_help(version_interfaces().front());
    return exit_ok;
  }
  // The catalog's date says how current the defaults and well-known blocks are.
  const auto& date = builtin_catalog().date;
  std::cout << "cidrcheck " << version_string << (date.empty() ? "" : " (catalog of " + date + ")") << "\n";
  return exit_ok;
}

constexpr command commands[] = {
    {"check", run_check, check_interfaces},
    {"plan", run_plan, plan_interfaces},
    {"import", run_import, import_interfaces},
    {"diff", run_diff, diff_interfaces},
    {"rules", run_rules, rules_interfaces},
    {"explain", run_explain, explain_interfaces},
    {"init", run_init, init_interfaces},
    {"map", run_map, map_interfaces},
    {"capacity", run_capacity, capacity_interfaces},
    {"set", run_set, set_interfaces},
    {"completion", run_completion, completion_interfaces},
    {"man", run_man, man_interfaces},
    {"version", run_version, version_interfaces},
};

void print_usage() {
  std::cout << "Usage: cidrcheck [check] [OPTIONS] FLEET...\n"
               "       cidrcheck COMMAND [OPTIONS] [ARGS...]\n\n"
               "Finds the CIDR overlaps that break routing across a fleet of Kubernetes clusters\n"
               "and networks, and plans the smallest safe renumbering.\n\n"
               "Commands:\n";
  std::size_t width = 0;
  for (const auto& c : commands) width = std::max(width, c.name.size() + 2);
  for (const auto& c : commands) {
    std::cout << "  " << c.name << std::string(width - c.name.size(), ' ') << c.interfaces().front().summary << "\n";
  }
  std::cout << "\nOptions:\n"
               "  -h [ --help ]  show this help and exit\n"
               "  --version      print the version and exit\n\n"
               "Run 'cidrcheck COMMAND --help' for the options of a command.\n"
               "Exit codes: 0 ok, 1 findings, 2 bad usage or unreadable input, 3 internal error.\n";
}

auto dispatch(const std::vector<std::string>& args) -> int {
  if (args.empty()) {
    // With a configuration, a bare `cidrcheck` is `cidrcheck check` of its inputs, as `cidrcheck -q` is.
    if (find_config(".")) return run_check(args);
    throw usage_error("missing command (and no .cidrcheck.yaml here to run the check of)", "");
  }
  const auto& first = args[0];
  if (first == "--help" || first == "-h" || first == "help") {
    print_usage();
    return exit_ok;
  }
  if (first == "--version") return run_version({});
  for (const auto& c : commands) {
    if (first == c.name) return c.run(std::span<const std::string>(args).subspan(1));
  }
  // Anything else is the default command: `cidrcheck fleet.yaml` is `cidrcheck check fleet.yaml`.
  // A bare word that is no file is more likely a mistyped command (KIND:FILE is a source).
  bool looks_like_command = first.find_first_of("./:") == std::string::npos && first != "-" && first[0] != '-';
  if (looks_like_command && !std::filesystem::exists(first)) {
    std::vector<std::string_view> names;
    for (const auto& c : commands) names.push_back(c.name);
    throw usage_error("unknown command '" + first + "', and no file of that name" + detail::did_you_mean(first, names),
                      "");
  }
  return run_check(args);
}

}  // namespace

auto command_table() -> std::span<const command> { return commands; }

auto all_interfaces() -> std::vector<command_interface> {
  std::vector<command_interface> out;
  for (const auto& c : commands) {
    for (auto& i : c.interfaces()) out.push_back(std::move(i));
  }
  return out;
}

auto run(int argc, char** argv) -> int {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    int code = dispatch(args);
    // Every command's output, --help and version too, reached standard output, or the run failed.
    // (std::cout writes through stdout's buffer: it is synced with stdio, so one flush sees both.)
    return finish_standard_output() ? code : exit_trouble;
  } catch (const usage_error& e) {
    std::cerr << "cidrcheck: error: " << e.what() << "\n";
    std::string path = e.help_command().empty() ? "" : e.help_command() + " ";
    std::cerr << "Try 'cidrcheck " << path << "--help' for more information.\n";
    return exit_trouble;
  } catch (const limit_error& e) {
    std::cerr << "cidrcheck: error: " << e.what() << " (--" << e.limit() << " raises it)\n";
    return exit_trouble;
  } catch (const std::bad_alloc&) {
    std::cerr << "cidrcheck: error: out of memory\n";
    return exit_trouble;
  } catch (const std::exception& e) {
    std::cerr << "cidrcheck: internal error: " << e.what() << "\n"
              << "This is a bug in cidrcheck " << version_string << "; please report it with the input that caused it.\n";
    return exit_internal;
  }
}

}  // namespace cidrcheck::cli
