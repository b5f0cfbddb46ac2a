#pragma once
// Writing YAML text that reads back as written: scalars and comments, for the
// writers of fleet files (fleet_writer.cpp, plan_writer.cpp).

#include <string>
#include <string_view>

namespace cidrcheck::detail {

/// Returns text as a YAML scalar: plain when that reads back as the same
/// string (and not as a number, a bool or null), else double-quoted.
auto yaml_scalar(std::string_view text) -> std::string;

/// Returns text fit for a YAML comment: control characters (which would end
/// the comment or forge a line) and line breaks become '?'.
auto yaml_comment_text(std::string_view text) -> std::string;

}  // namespace cidrcheck::detail
