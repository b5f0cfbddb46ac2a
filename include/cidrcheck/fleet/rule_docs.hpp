#pragma once
// The documentation of every rule, compiled in from docs/rules/<name>.md, so
// that the docs, `cidrcheck explain` and SARIF's rule help are one text.

#include <cidrcheck/fleet/rules.hpp>

#include <string_view>

namespace cidrcheck {

/// Returns the documentation page of a rule: the Markdown of
/// docs/rules/<name>.md as written, a title line "# NAME (ID) — SEVERITY" and
/// the paragraphs What, Why, How to fix and When suppressing is legitimate.
/// Every rule has a page; the build fails when one is missing.
auto rule_documentation(rule r) noexcept -> std::string_view;

}  // namespace cidrcheck
