#pragma once
// .cidrcheck.yaml: the settings a repository keeps for its cidrcheck runs
// (see docs/configuration.md).

#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/suppression.hpp>
#include <cidrcheck/fleet/triage.hpp>
#include <cidrcheck/io/diagnostic.hpp>
#include <cidrcheck/io/input_limits.hpp>
#include <cidrcheck/severity.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {

/// The settings of one .cidrcheck.yaml. What the file leaves out is absent, so
/// that command-line options and built-in defaults can fill it.
struct config {
  std::string file;                    ///< where it was read
  std::vector<std::string> inputs;     ///< fleet files or directories, relative to the working directory
  std::optional<fail_threshold> fail_on;
  std::optional<severity> min_severity;  ///< the least severe finding reports show
  std::vector<rule_override> rules;
  std::vector<catalog_block> reserved;  ///< extra blocks, flagged by reserved-range
  std::vector<suppression> suppressions;
};

struct config_load_result {
  config value;
  std::vector<diagnostic> diagnostics;
  /// Reports whether the file was read without errors.
  auto ok() const -> bool { return !has_errors(diagnostics); }
};

/// The names a configuration file may have, in the order they are looked for.
inline constexpr std::string_view config_file_names[] = {".cidrcheck.yaml", ".cidrcheck.yml"};

/// Returns the configuration file that applies in directory start: the first
/// of config_file_names in start, then in its parents, up to and including the
/// first directory that holds `.git` (the repository root) or the root of the
/// file system. The path is relative to start when it is below or beside it
/// (`../.cidrcheck.yaml`), so paths in reports stay short. nullopt when there is
/// none, or when start cannot be made absolute.
auto find_config(std::string_view start) -> std::optional<std::string>;

/// Reads a configuration file, reporting every problem at its position (an
/// unreadable file too). Inputs are resolved against the file's directory. The
/// input limits of fleet files apply (size, YAML depth and nodes, errors); a
/// limit hit is an error "limit". Never throws for bad input.
auto load_config(const std::string& path, const input_limits& limits = {}) -> config_load_result;

/// Parses configuration text named `name`; inputs are resolved against `directory`.
auto parse_config(std::string_view text, const std::string& name, std::string_view directory,
                  const input_limits& limits = {}) -> config_load_result;

/// Returns the built-in catalog (builtin_catalog()) plus the configuration's
/// extra reserved blocks: the catalog a run with this configuration checks against.
auto catalog_for(const config& cfg) -> catalog;

/// Returns the commented starter file `cidrcheck init` writes (data/starter-config.yaml).
auto starter_config() -> std::string_view;

}  // namespace cidrcheck
