#pragma once
// Reading a `suppressions:` list: the same schema in .cidrcheck.yaml and in
// fleet files.

#include "yaml_reader.hpp"

#include <cidrcheck/fleet/suppression.hpp>

#include <cstdint>
#include <vector>

namespace cidrcheck::detail {

/// Reads the list at node, appending each valid suppression to out and
/// reporting every problem at its position: an unknown rule, a missing or
/// empty reason, an entity that is not OWNER or OWNER/ROLE, a bad date.
void read_suppressions(yaml_reader& r, std::uint32_t node, std::vector<suppression>& out);

/// Returns the rule with this id or name, or reports it (with the closest
/// id or name) at node and returns nullopt.
auto read_rule(yaml_reader& r, std::uint32_t node, std::string_view what) -> std::optional<rule>;

}  // namespace cidrcheck::detail
