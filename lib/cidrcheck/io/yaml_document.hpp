#pragma once
// A YAML (or JSON) document as a small tree of positioned nodes, parsed with
// libyaml's event API. libyaml is used rather than yaml-cpp because this tree
// is built faster than yaml-cpp's YAML::Load builds its own (1.5 to 4.7 times
// on a 10,000-cluster fleet across runs; the runs and the command,
// `cidrcheck_yaml_bench` of bench/yaml_bench.cpp, are in docs/architecture.md),
// and because building our own tree lets the loader enforce depth, size and
// alias-expansion limits and see duplicate keys.
//
// The tree is three arrays, each written once from front to back: 32-byte
// nodes, the scalars' text, and the collections' children (a collection's
// children are contiguous, appended when it ends). Their capacity is reserved
// from the text's size. A reader asks the document for a node's text and
// children (value(), children()).
//
// Aliases point at their anchored node (the tree is a DAG); nothing is copied,
// so an alias bomb costs nothing to hold. The limits count the document as if
// every alias were expanded, so a billion-laughs document is refused while it
// is parsed, before any reader walks it.

#include <cidrcheck/io/diagnostic.hpp>
#include <cidrcheck/io/input_limits.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::detail {

enum class yaml_kind : std::uint8_t { scalar, sequence, mapping };

/// One node, 32 bytes: what it is, where it is, and where its text or its
/// children are in the document (read them with yaml_document::value() and
/// yaml_document::children()). Small and fixed so that a tree of millions of
/// nodes is one array written once, without an allocation per node.
struct yaml_node {
  yaml_kind kind = yaml_kind::scalar;
  bool quoted = false;       ///< a scalar written in quotes or as a block: never null, a number or a bool
  bool flow = false;         ///< a sequence or mapping written in flow style ([...], {...})
  std::uint32_t line = 0;    ///< 1-based
  std::uint32_t column = 0;  ///< 1-based, in bytes
  std::uint32_t end_line = 0;
  std::uint32_t end_column = 0;  ///< one past the last byte
  std::uint32_t size = 0;        ///< scalar: bytes of text; sequence and mapping: children
  /// scalar: where its text starts in yaml_document::scalar_text; sequence and
  /// mapping: where its children start in yaml_document::child_index
  std::uint64_t first = 0;
};
static_assert(sizeof(yaml_node) == 32, "the tree's memory is 32 bytes a node");

/// Limits on what a stream of documents may hold, counted with every alias
/// expanded (each use of an alias counts the nodes and text it refers to
/// again); each has a name its error message uses. The defaults are
/// input_limits' (yaml_limits_of()).
struct yaml_limits {
  std::size_t max_depth = input_limits{}.max_depth;       ///< "max-depth": nesting of sequences and mappings
  std::size_t max_nodes = input_limits{}.max_nodes;       ///< "max-nodes": nodes
  std::size_t max_bytes = input_limits{}.max_file_bytes;  ///< "max-file-bytes": the text of the scalars
  std::size_t max_errors = input_limits{}.max_errors;  ///< "max-errors": the errors a yaml_reader reports before it stops walking
};

/// Returns the length in bytes of the line break at text[k] that YAML counts and
/// editors do not (a lone CR, NEL, LS or PS), or 0 where there is none.
inline auto yaml_only_line_break(std::string_view text, std::size_t k) -> std::size_t {
  if (text[k] == '\r') return k + 1 == text.size() || text[k + 1] != '\n' ? 1 : 0;
  if (text.substr(k, 2) == "\xC2\x85") return 2;
  if (text.substr(k, 3) == "\xE2\x80\xA8" || text.substr(k, 3) == "\xE2\x80\xA9") return 3;
  return 0;
}

/// Returns the YAML limits of a reader's input limits.
inline auto yaml_limits_of(const input_limits& limits) -> yaml_limits {
  return {limits.max_depth, limits.max_nodes, limits.max_file_bytes, limits.max_errors};
}

struct yaml_document {
  std::vector<yaml_node> nodes;
  std::string scalar_text;                ///< every scalar's text, one after another (value() reads it)
  /// every collection's children, each collection's contiguous (children() reads it)
  std::vector<std::uint32_t> child_index;
  std::vector<std::uint32_t> roots;       ///< one per document in the stream ("---" separated)
  /// The max-depth limit the text was parsed with; readers bound merge keys by it too.
  std::size_t max_depth = yaml_limits{}.max_depth;

  auto operator[](std::uint32_t k) const -> const yaml_node& { return nodes[k]; }
  /// Returns a scalar's text (without quotes, escapes resolved); empty for a sequence or mapping.
  auto value(std::uint32_t k) const -> std::string_view {
    const auto& n = nodes[k];
    return n.kind == yaml_kind::scalar ? std::string_view(scalar_text).substr(n.first, n.size) : std::string_view();
  }
  /// Returns a collection's children: a sequence's items; a mapping's key, value,
  /// key, value, ... (aliases are the index of the node they refer to). Empty for a scalar.
  auto children(std::uint32_t k) const -> std::span<const std::uint32_t> {
    const auto& n = nodes[k];
    if (n.kind == yaml_kind::scalar) return {};
    return std::span<const std::uint32_t>(child_index).subspan(n.first, n.size);
  }
};

/// Reserves a document's arrays for a text of `text_size` bytes, so that they
/// are not copied as they grow: JSON and YAML exports take 8 to 20 bytes of
/// text a node (a reservation is address space; pages are touched only as
/// nodes are written), and scalars' text is never longer than the document's.
inline void reserve_for_text(yaml_document& doc, std::size_t text_size, const yaml_limits& limits) {
  doc.nodes.reserve(std::min(text_size / 8 + 16, limits.max_nodes + 1));
  doc.child_index.reserve(std::min(text_size / 8 + 16, limits.max_nodes + 1));
  doc.scalar_text.reserve(std::min(text_size, limits.max_bytes));
}

/// Parses text (named `name` in diagnostics). On a syntax error or a limit hit,
/// adds one error diagnostic at the offending position and returns what was
/// parsed so far; check the diagnostics. Plain JSON is read without libyaml
/// (parse_plain_json(), json_tree.hpp), into the same tree.
auto parse_yaml(std::string_view text, std::string_view name, const yaml_limits& limits,
                std::vector<diagnostic>& diagnostics) -> yaml_document;

/// parse_yaml() without its JSON shortcut: libyaml reads every text. The
/// reference the shortcut is tested against.
auto parse_yaml_with_libyaml(std::string_view text, std::string_view name, const yaml_limits& limits,
                             std::vector<diagnostic>& diagnostics) -> yaml_document;

}  // namespace cidrcheck::detail
