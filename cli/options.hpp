#pragma once
// Helpers shared by the commands' Boost.Program_options definitions, and the
// description of a command's interface that --help, the man page and shell
// completion are all generated from.

#include <cidrcheck/prefix.hpp>

#include <boost/program_options.hpp>

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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

/// An option whose values shell completion offers: these words, or file names
/// when there are none.
struct value_hint {
  std::string option;  ///< the long name
  std::vector<std::string> choices;
};

/// What a command's positional arguments are, for completion and the man page.
/// What a command's operands are: files, sources (files or KIND:FILE imports), or words.
enum class operand_kind { none, files, words, sources };

/// Everything a command takes. Each command builds its own once, and --help,
/// `cidrcheck man` and `cidrcheck completion` all print from it, so they cannot
/// disagree with what the parser accepts.
struct command_interface {
  std::string name;         ///< "check", or "set merge" for a subcommand
  std::string summary;      ///< one line, lowercase
  std::string usage;        ///< what follows "cidrcheck " in the usage line
  std::string description;  ///< paragraphs for --help and the man page, lines of at most 80 columns
  boost::program_options::options_description options{"Options"};  ///< the visible options
  std::vector<value_hint> values;
  operand_kind operands = operand_kind::none;
  std::vector<std::string> operand_words;  ///< operand_kind::words: what completion offers
};

/// One option as the man page and completion show it.
struct option_entry {
  std::string long_name;   ///< "format"
  std::string short_name;  ///< "f", or ""
  std::string parameter;   ///< "FORMAT[=FILE]", "N (=64)"; "" for a switch
  std::string description;
};

/// Returns the options of a description, in order.
auto option_entries(const boost::program_options::options_description& options) -> std::vector<option_entry>;

/// Parses args against options and positional, turning every Boost error into a
/// usage_error that points at `cidrcheck <command_path> --help`.
auto parse_options(std::span<const std::string> args, const boost::program_options::options_description& options,
                   const boost::program_options::positional_options_description& positional,
                   const std::string& command_path) -> boost::program_options::variables_map;

/// Parses args against a command's options plus its operands, collected under
/// the hidden option `operand`, and returns them.
auto parse_command(std::span<const std::string> args, const command_interface& c)
    -> boost::program_options::variables_map;

/// Parses the CIDR an option was given; throws usage_error naming the option
/// and saying what is wrong ("host bits set (did you mean 10.0.0.0/8?)").
auto parse_prefix_option(const std::string& text, const std::string& option, const std::string& help) -> prefix;

/// Returns the operands parse_command() collected.
auto operands(const boost::program_options::variables_map& vm) -> std::vector<std::string>;

/// Prints "Usage: cidrcheck <usage>", the description and the options to stdout.
void print_help(std::string_view usage, std::string_view description,
                const boost::program_options::options_description& options);
void print_help(const command_interface& c);

}  // namespace cidrcheck::cli
