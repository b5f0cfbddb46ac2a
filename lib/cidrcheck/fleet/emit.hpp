#pragma once
// The emitters of runbook files and commands: one per language, and the only
// code that writes a value into YAML, a shell command or Terraform. Every
// string that may come from the input is quoted for its language (or refused
// where the language has no quoting for it, with the reason), so a legal name
// such as `a;touch X;$(touch Y)` stays one inert value: a shell line is one
// command, a YAML document parses to the tree given, an HCL string never
// interpolates.

#include <cidrcheck/fleet/runbook_step.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace cidrcheck::detail {

// --- YAML ---------------------------------------------------------------------

// A document as block-style YAML 1.2 that YAML 1.1 readers read alike: every
// string double-quoted (escaping what YAML may not hold raw: C0 and C1
// controls, DEL, U+2028/U+2029, U+FEFF, U+FFFE/U+FFFF; invalid UTF-8 as U+FFFD),
// so no value is read back as a number, a bool, null, an alias or a tag; keys
// plain when they are identifiers, else quoted; comments on one line each,
// escaped as printable text. An empty list or map is written in flow style.
auto to_yaml(const doc_node& document) -> std::string;

// A string as a double-quoted scalar that YAML and JSON read alike (\", \\,
// \t, \n and \uXXXX escapes only: every code point it escapes is in the BMP),
// so one function quotes manifests and `kubectl patch` JSON.
// io/yaml_scalar.hpp's yaml_scalar is the fleet writers' (plain where it
// reads back, YAML-only escapes such as \x09 and \N): not the same contract.
auto yaml_quoted(std::string_view text) -> std::string;

// --- shell --------------------------------------------------------------------

// A placeholder the operator fills in before running a command: written as a
// shell variable, "$NAME", with a line above the command that says what it is.
struct shell_placeholder {
  std::string variable;  // [A-Z][A-Z0-9_]*
  std::string meaning;   // "the cluster's resource group"
  std::string prefix;    // written before it, unquoted and safe: "--resource-group="
};

// One word of a command: text cidrcheck writes (a command name, an option, a
// CIDR), quoted only where needed; a placeholder; or a value from the input,
// always a single-quoted word.
struct shell_word {
  std::variant<std::string, shell_placeholder> text;
  bool from_input = false;
};

// One command: its words, in order. A pipeline or list is never one command.
struct shell_command {
  std::vector<shell_word> words;
};

auto word(std::string text) -> shell_word;
auto input_word(std::string text) -> shell_word;
auto placeholder(std::string variable, std::string meaning, std::string prefix = {}) -> shell_word;
// A word joined to an option, `--name=VALUE`, VALUE from the input: one word
// however VALUE starts (so a name that starts with '-' is never an option).
auto option_word(std::string_view option, std::string_view value) -> shell_word;

// A word for a POSIX shell: as it is when every byte is one of
// [A-Za-z0-9_@%+=:,./-] (and it is not empty), else single-quoted with each '
// written '\''. Newlines and other controls are kept inside the quotes, where
// they are inert; the line check (shell_line_problem) refuses them.
auto shell_quoted(std::string_view text) -> std::string;

// The command as one line; a placeholder becomes "$NAME". Throws
// basic_error<std::invalid_argument> for a word cidrcheck writes that is not
// safe unquoted, or a placeholder whose name is not [A-Z][A-Z0-9_]* (defects
// of the caller, never of the input).
auto to_shell(const shell_command& command) -> std::string;

// Why a line is not one simple command, or nullopt: an unquoted ; & | < > ( )
// ` or $ other than "$NAME", an unquoted \ other than the \' of '\'', a
// newline or control character anywhere, an unterminated quote. The check the fuzzer runs on every emitted line.
auto shell_line_problem(std::string_view line) -> std::optional<std::string>;

// --- HCL (Terraform) ----------------------------------------------------------

// A Terraform block: `resource "TYPE" "NAME" { attribute = value ... }`, its
// attributes a doc_map (strings quoted, doc_reference unquoted, lists of those).
struct hcl_block {
  std::string type;                 // "resource", "variable"
  std::vector<std::string> labels;  // ["aws_vpc", "pods"]
  doc_map attributes;
};

// Blocks as Terraform, strings escaped so that none interpolates ("${" and
// "%{" doubled, quotes, backslashes and controls escaped). Throws
// basic_error<std::invalid_argument> for a label or attribute name that is not
// an identifier, or a reference that is not identifiers joined by '.' (defects
// of the caller: names from the input pass through terraform_name first).
auto to_hcl(const std::vector<hcl_block>& blocks) -> std::string;

// A Terraform identifier from any name: lower-case letters, digits and '-'
// kept, the rest '-', "n-" before a name that does not start with a letter.
auto terraform_name(std::string_view name) -> std::string;

}  // namespace cidrcheck::detail
