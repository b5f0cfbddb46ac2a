#pragma once
// Helpers shared by the commands' Boost.Program_options definitions.

#include <cidrcheck/io/fleet_loader.hpp>

#include <boost/program_options.hpp>

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cidrcheck::cli {

/// A command-line mistake: reported as "cidrcheck: error: ..." with a pointer to
/// --help, exit code 2.
class usage_error : public std::runtime_error {
 public:
  usage_error(std::string message, std::string help_command)
      : std::runtime_error(std::move(message)), help_command_(std::move(help_command)) {}
  auto help_command() const -> const std::string& { return help_command_; }

 private:
  std::string help_command_;
};

/// Parses args against options and positional, turning every Boost error into a
/// usage_error that points at `cidrcheck <command_path> --help`.
auto parse_options(std::span<const std::string> args, const boost::program_options::options_description& options,
                   const boost::program_options::positional_options_description& positional,
                   const std::string& command_path) -> boost::program_options::variables_map;

/// Adds the --max-* options of fleet input (--max-file-bytes, --max-depth, ...) to
/// options, storing into limits; for every command that reads fleet files.
void add_fleet_limits(boost::program_options::options_description& options, fleet_limits& limits);

/// Prints "Usage: cidrcheck <usage>", the description and the options to stdout.
void print_help(std::string_view usage, std::string_view description,
                const boost::program_options::options_description& options);

}  // namespace cidrcheck::cli
