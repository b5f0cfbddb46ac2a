#pragma once

#include "options.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::cli {

/// The exit codes of every command (the diff/shellcheck convention).
enum exit_code : int {
  exit_ok = 0,        ///< done; nothing to report at or above the failure threshold
  exit_findings = 1,  ///< done; something was found (conflicts, overlaps, an unfinished plan)
  exit_trouble = 2,   ///< could not do the job: bad usage or input that cannot be read or analysed
  exit_internal = 3,  ///< a bug in cidrcheck
};

/// One command: its name, its entry point (which gets the arguments after the
/// name) and its interfaces: the command's own first, then its subcommands'
/// ("set", then "set merge", ...).
struct command {
  std::string_view name;
  int (*run)(std::span<const std::string> args);
  std::vector<command_interface> (*interfaces)();
};

/// Returns every command, in the order `cidrcheck --help` lists them.
auto command_table() -> std::span<const command>;

/// Returns the interfaces of every command and subcommand, in that order.
auto all_interfaces() -> std::vector<command_interface>;

/// Runs the command line and returns the process exit code. Never throws.
auto run(int argc, char** argv) -> int;

// The commands, each defined in commands/<name>.cpp.
auto run_check(std::span<const std::string> args) -> int;
auto check_interfaces() -> std::vector<command_interface>;
auto run_plan(std::span<const std::string> args) -> int;
auto plan_interfaces() -> std::vector<command_interface>;
auto run_import(std::span<const std::string> args) -> int;
auto import_interfaces() -> std::vector<command_interface>;
auto run_diff(std::span<const std::string> args) -> int;
auto diff_interfaces() -> std::vector<command_interface>;
auto run_rules(std::span<const std::string> args) -> int;
auto rules_interfaces() -> std::vector<command_interface>;
auto run_explain(std::span<const std::string> args) -> int;
auto explain_interfaces() -> std::vector<command_interface>;
auto run_init(std::span<const std::string> args) -> int;
auto init_interfaces() -> std::vector<command_interface>;
auto run_map(std::span<const std::string> args) -> int;
auto map_interfaces() -> std::vector<command_interface>;
auto run_capacity(std::span<const std::string> args) -> int;
auto capacity_interfaces() -> std::vector<command_interface>;
auto run_set(std::span<const std::string> args) -> int;
auto set_interfaces() -> std::vector<command_interface>;
auto run_completion(std::span<const std::string> args) -> int;
auto completion_interfaces() -> std::vector<command_interface>;
auto run_man(std::span<const std::string> args) -> int;
auto man_interfaces() -> std::vector<command_interface>;

}  // namespace cidrcheck::cli
