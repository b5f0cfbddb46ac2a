#pragma once

#include <span>
#include <string>
#include <string_view>

namespace cidrcheck::cli {

/// The exit codes of every command (the diff/shellcheck convention).
enum exit_code : int {
  exit_ok = 0,        ///< done; nothing to report at or above the failure threshold
  exit_findings = 1,  ///< done; something was found (conflicts, overlaps, an unfinished plan)
  exit_trouble = 2,   ///< could not do the job: bad usage or input that cannot be read or analysed
  exit_internal = 3,  ///< a bug in cidrcheck
};

/// One subcommand: its name, a one-line summary for `cidrcheck --help`, and its
/// entry point, which gets the arguments after the name.
struct command {
  std::string_view name;
  std::string_view summary;
  int (*run)(std::span<const std::string> args);
};

/// Runs the command line and returns the process exit code. Never throws.
auto run(int argc, char** argv) -> int;

// The commands, each defined in commands/<name>.cpp.
auto run_check(std::span<const std::string> args) -> int;
auto run_map(std::span<const std::string> args) -> int;
auto run_set(std::span<const std::string> args) -> int;

}  // namespace cidrcheck::cli
