#pragma once

#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/io/diagnostic.hpp>

#include <string_view>
#include <vector>

namespace cidrcheck {

/// Parses a catalog in the format of data/catalog.yaml, adding any problems to
/// diagnostics. Never throws for bad input.
auto parse_catalog(std::string_view text, std::string_view name, std::vector<diagnostic>& diagnostics) -> catalog;

/// Returns the catalog shipped with cidrcheck (data/catalog.yaml, compiled in).
/// Parsed once, on first use; safe to call from several threads, the first use
/// included (the others wait for the one parse). Throws basic_error<std::logic_error>
/// (a cidrcheck::error) only if the compiled-in file does not parse, a build defect
/// the tests rule out.
auto builtin_catalog() -> const catalog&;

}  // namespace cidrcheck
