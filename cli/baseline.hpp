#pragma once
// Baselines: a JSON report of an earlier run, whose findings a later run
// leaves out, so that only new findings fail it.

#include <cidrcheck/io/fleet_loader.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_set>

namespace cidrcheck::cli {

/// Returns the fingerprints of the findings of a JSON report (the
/// `findings[].fingerprint` values). Prints why and returns nullopt when the
/// file cannot be read, passes a limit of fleet files (max-file-bytes,
/// max-depth, max-nodes) or is no such report. "-" reads standard input.
auto read_baseline(const std::string& path, const input_limits& limits)
    -> std::optional<std::unordered_set<std::string>>;

}  // namespace cidrcheck::cli
