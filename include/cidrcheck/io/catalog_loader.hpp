#pragma once

#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/io/diagnostic.hpp>

#include <string_view>
#include <vector>

namespace cidrcheck {

/// Parses a catalog in the format of data/catalog.yaml, adding any problems to diagnostics.
auto parse_catalog(std::string_view text, std::string_view name, std::vector<diagnostic>& diagnostics) -> catalog;

/// Returns the catalog shipped with cidrcheck (data/catalog.yaml, compiled in).
/// Parsed once, on first use; safe to call from several threads.
auto builtin_catalog() -> const catalog&;

}  // namespace cidrcheck
