#pragma once
// The fleet loader's state, shared by its two halves: fleet_loader.cpp reads
// sources and, in finish(), resolves what refers across them (connections,
// routes, imports, cost owners); fleet_loader_sections.cpp reads a fleet
// file's sections, one reader per section over a table of its keys.

#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/io/fleet_loader.hpp>
#include <cidrcheck/io/input_limits.hpp>

#include "import/read_import.hpp"
#include "plan_overlay.hpp"
#include "yaml_reader.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace cidrcheck::detail {

/// A member's translated range as written, before members are resolved.
struct pending_translation {
  std::string member;
  source_location member_where;
  fleet_range range;  ///< cidr and where; owner and translation set when resolved
};

/// A connection as written: member names are resolved once every source is read.
struct pending_connection {
  connection value;
  std::vector<std::pair<std::string, std::uint32_t>> names;  ///< name, node
  source_location where;
  std::vector<source_location> name_locations;
  std::vector<pending_translation> translated;
  std::optional<source_location> translated_where;  ///< where `translated` was written
  std::optional<source_location> withdrawn_where;   ///< where `withdrawn` was written
  /// An import's: a member no source describes is a warning and left out, not an error.
  bool imported = false;
};

struct fleet_reading {
  const catalog& cat;
  input_limits limits;
  fleet_load_result result;
  std::vector<pending_connection> connections;
  std::unordered_map<std::string, std::uint32_t> owner_index;
  std::vector<import_result> imports;  ///< merged in finish(), after every fleet file
  std::unordered_map<std::string, std::vector<std::string>> moved_to;  ///< see merged_imports
  std::unordered_map<std::string, std::vector<std::string>> parts;     ///< see merged_imports
  std::vector<std::pair<std::uint32_t, std::vector<observed_address>>> service_ips;  ///< see merged_imports
  std::vector<detail::renumbering> renumbering;  ///< a plan's overlay (plan_overlay.hpp)
  std::unordered_set<std::string> import_names;  ///< the names of the exports read (not fleet files)
  bool stopped = false;                  ///< too many errors, or a limit hit: read nothing more

  fleet_reading(const catalog& c, input_limits l) : cat(c), limits(l) {}

  // Sources (fleet_loader.cpp).
  auto error_count() const -> std::size_t;
  /// Reads a fleet file's text.
  void read(std::string_view text, const std::string& name);
  /// Returns a file's text; a file that cannot be read is an error (its
  /// message starting with `prefix`), and nothing.
  auto read_whole(const std::string& path, const std::string& prefix) -> std::optional<std::string>;
  /// Reports whether text given directly is within max-file-bytes; if not, says so.
  auto fits(std::string_view text, const std::string& name, const std::string& prefix) -> bool;
  void read_import(import_kind kind, std::string_view text, const std::string& name, const std::string& cluster = {});
  /// Reads nothing more; d says why, unless a yaml_reader already stopped for it.
  void stop(diagnostic d);

  // A fleet file's sections (fleet_loader_sections.cpp).
  void read_document(yaml_reader& r, std::uint32_t root);

  // What refers across sources, once all are read (fleet_loader.cpp).
  void merge_imports();
  void resolve_connections();
  void resolve_routes();
  /// Resolves each cluster's `runs_in` to the network it names.
  void resolve_memberships();
  /// States where each cluster runs when no source said it (notes), and warns of
  /// a cluster whose network lies outside the network a source says it runs in.
  void note_memberships();
  void check_cost_owners();
  void warn_unknown_distributions(const std::vector<std::uint32_t>& unknown);
  void warn_lookalike_names();
  void sort_diagnostics();
  /// An `ipam` the catalog's entry for the owner's CNI does not list: the
  /// error naming the modes it does; nullopt for any value of a CNI it does not know.
  auto ipam_problem(const owner& o, const std::string& what) const -> std::optional<std::string>;
  /// Adds a resolved connection's translated ranges to their members, or reports why not.
  auto add_translated(pending_connection& p, std::uint32_t index) -> bool;
};

}  // namespace cidrcheck::detail
