#pragma once
// Reading fleet files (YAML or JSON) into the fleet model.

#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/fleet/suppression.hpp>
#include <cidrcheck/io/diagnostic.hpp>
#include <cidrcheck/io/import.hpp>
#include <cidrcheck/io/input_limits.hpp>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {

namespace detail {
struct fleet_reading;  // the loader's state (lib/cidrcheck/io/fleet_loader_state.hpp)
}  // namespace detail

/// A fleet read from one or more sources, with every problem found on the way.
struct fleet_load_result {
  fleet value;                          ///< usable as far as it was read, even with errors
  std::vector<std::string> files;       ///< the sources, in the order read
  std::vector<diagnostic> diagnostics;  ///< errors, warnings (unknown distribution, ...)
  std::vector<suppression> suppressions;  ///< the files' `suppressions:`, in reading order
  /// Reports whether the fleet was read without errors (warnings allowed).
  auto ok() const -> bool { return !has_errors(diagnostics); }
};

/// Reads fleet sources into one fleet. Owners may be split across sources and
/// connections may name owners of any source; names are resolved in finish().
/// Defaults from the catalog are applied in finish(). Never throws for bad input.
///
/// Sources are fleet files and imports (exports of other tools, see
/// import.hpp). Owners of one name from several sources are merged in
/// finish(): fleet files first, then imports in the order added. Where two
/// sources give different ranges for one role and IP version of an owner, the
/// fleet keeps the first and records a source_conflict; other fields that
/// disagree (distribution, version, node count, ...) keep the first value and
/// add a warning. Two fleet files may not both declare an owner.
///
/// The catalog must outlive the loader, and finish() ends its use. A loader
/// changes with every call, so each thread loads with its own (they may share
/// the catalog).
class fleet_loader {
 public:
  explicit fleet_loader(const catalog& c, input_limits limits = {});
  ~fleet_loader();
  fleet_loader(fleet_loader&&) noexcept;
  auto operator=(fleet_loader&&) noexcept -> fleet_loader&;

  /// Reads a fleet file; "-" reads standard input.
  void add_file(const std::string& path);
  /// Reads a fleet from text, named `name` in diagnostics.
  void add_text(std::string_view text, std::string name);
  /// Reads a file another tool exported; "-" reads standard input. `cluster`
  /// names the cluster of an export that names none (kubectl, kubeadm; see
  /// names_cluster_after_file()); empty, the file's name does, and a note says so.
  void add_import(import_kind kind, const std::string& path, const std::string& cluster = {});
  /// Reads an export from text, named `name` in diagnostics; `cluster` as for add_import().
  void add_import_text(import_kind kind, std::string_view text, std::string name, const std::string& cluster = {});
  /// Reads a source as the command line names it (see parse_source_spec()):
  /// "KIND:PATH" is add_import(), anything else add_file().
  void add_source(std::string_view spec);
  /// Resolves connections, applies defaults and returns the fleet.
  auto finish() -> fleet_load_result;

 private:
  std::unique_ptr<detail::fleet_reading> state_;
};

/// Reads the sources (fleet files, or KIND:PATH imports; see add_source()) as one fleet.
auto load_fleet(std::span<const std::string> sources, const catalog& c, const input_limits& limits = {})
    -> fleet_load_result;

}  // namespace cidrcheck
