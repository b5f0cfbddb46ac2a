#pragma once
// Reading one export: JSON and HuJSON go through the YAML parser (JSON is
// YAML's flow style), so every value keeps its line and column; CSV
// (netbox-csv) has a reader of its own (netbox_csv.cpp).

#include "../yaml_document.hpp"
#include "../../fleet/imported.hpp"

#include <cidrcheck/io/diagnostic.hpp>
#include <cidrcheck/io/import.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::detail {

/// Reports whether text is JSON rather than block YAML: its first character
/// after a byte-order mark, blanks and (for HuJSON) comments is '{' or '['.
auto looks_like_json(std::string_view text) -> bool;

/// Reports whether prepare_json() may change text: false means it would not
/// (the text can be parsed as it is, without a copy).
auto may_need_mending(std::string_view text, bool hujson) -> bool;

/// Rewrites JSON text in place so that libyaml reads it as JSON means it,
/// keeping every byte offset (so positions stay right):
/// - a UTF-16 surrogate escape ("\ud83d", which JSON needs for characters
///   beyond U+FFFF and YAML has no use for) becomes "\uFFFD", the replacement
///   character: cidrcheck reads no field where such characters matter;
/// - in strings, the characters YAML counts as line breaks and JSON does not:
///   U+0085 becomes its escape "\N"; U+2028 and U+2029 become U+FFFD;
/// - with hujson, // and /* */ comments become blanks (newlines stay).
/// HuJSON's trailing commas need nothing: YAML's flow style allows them.
/// Returns the offset of a /* comment that never ends, if any.
auto prepare_json(std::string& text, bool hujson) -> std::optional<std::size_t>;

/// Reads one export of a kind, named `name` in diagnostics. Every diagnostic
/// added starts with the kind's name ("aws-vpcs: ..."); syntax errors in JSON
/// say "invalid JSON" and point at the offending character.
/// `cluster` names the cluster of kinds whose exports name none (see
/// names_cluster_after_file()); empty, the file's stem does, with a note saying so.
auto read_import(import_kind kind, std::string_view text, const std::string& name, const yaml_limits& limits,
                 std::size_t visit_budget, std::vector<diagnostic>& diagnostics, const std::string& cluster = {})
    -> import_result;

}  // namespace cidrcheck::detail
