#pragma once
// The document tree of a plain JSON text, built without libyaml.
//
// Exports (kubectl -o json, AWS, Azure, GCP, Terraform plans, NetBox) are
// JSON, and libyaml spends most of an import's time scanning them: a token and
// an event per scalar, each allocated and freed. JSON's grammar is small, so a
// byte-at-a-time reader builds the same tree directly, several times faster.
//
// It is an accelerator, not a second parser: it accepts only what it knows
// libyaml reads the same way, node for node and position for position (a root
// object or array; strict JSON strings, numbers and literals; printable UTF-8;
// keys on one line with their colon; whitespace of spaces, tabs inside
// collections, LF and CRLF), and within the limits. For anything else
// (YAML, a syntax error, a limit hit, a byte-order mark, a character YAML
// treats specially) it returns nothing, and parse_yaml() reads the text with
// libyaml, whose results and diagnostics are then the only ones there are.

#include "yaml_document.hpp"

#include <optional>
#include <string_view>

namespace cidrcheck::detail {

/// Returns the tree libyaml would build of text, where text is plain JSON
/// within limits; nothing otherwise.
auto parse_plain_json(std::string_view text, const yaml_limits& limits) -> std::optional<yaml_document>;

}  // namespace cidrcheck::detail
