#pragma once
// The limits on what cidrcheck reads, defined once: the fleet loader, the
// configuration loader, the YAML layer under both, the CLI's --max-* flags and
// the Python package take them from here (docs/limits.md).

#include <cstddef>
#include <cstdint>

namespace cidrcheck {

/// Limits on input. The defaults are generous for real fleets (a
/// 10,000-cluster fleet file is about 3 MB); every limit has the name its error
/// message uses, and the CLI a flag of that name.
/// Aliases count each time they are used, for the nodes and for the text.
struct input_limits {
  std::size_t max_file_bytes = std::size_t{32} << 20;  ///< "max-file-bytes": a file, and a document's text
  std::size_t max_depth = 64;                          ///< "max-depth": YAML nesting, and merge keys in merged mappings
  std::size_t max_nodes = 5'000'000;                   ///< "max-nodes": YAML nodes, and nodes walked
  std::size_t max_owners = 1'000'000;                  ///< "max-owners": clusters and networks
  std::size_t max_ranges = 10'000'000;                 ///< "max-ranges"
  std::size_t max_errors = 100;                        ///< "max-errors": stop reading after this many errors
};

/// The largest count of nodes, Services or LoadBalancers an input may give
/// one cluster (a fleet file's `nodes`, an export's node count).
inline constexpr std::int64_t max_declared_count = 100'000'000;

}  // namespace cidrcheck
