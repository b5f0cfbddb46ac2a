#pragma once
// Typed, positioned access to a yaml_document for the loaders: every accessor
// reports what is wrong at the node's file:line:column and returns nullopt, so
// a loader can carry on and report every problem of a file in one run.

#include "yaml_document.hpp"

#include <cidrcheck/detail/spelling.hpp>

#include <cidrcheck/address.hpp>
#include <cidrcheck/io/diagnostic.hpp>
#include <cidrcheck/prefix.hpp>

#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::detail {

class yaml_reader {
 public:
  struct entry {
    std::string_view key;
    std::uint32_t key_node;
    std::uint32_t value;
  };

  /// visit_budget bounds the nodes visited, aliases counted each time they are
  /// walked (the "max-nodes" limit, against alias bombs). Once `out` holds
  /// max_errors errors (those it held before count too), the reader adds a
  /// "too-many-errors" error and stops walking: the accessors return nullopt
  /// and exhausted() is true.
  yaml_reader(const yaml_document& doc, std::string file, std::vector<diagnostic>& out, std::size_t visit_budget,
              std::size_t max_errors = yaml_limits{}.max_errors);

  auto document() const -> const yaml_document& { return doc_; }
  auto node(std::uint32_t k) const -> const yaml_node& { return doc_[k]; }
  /// Returns a scalar's text (yaml_document::value()).
  auto value(std::uint32_t k) const -> std::string_view { return doc_.value(k); }
  /// Returns a collection's children (yaml_document::children()).
  auto children(std::uint32_t k) const -> std::span<const std::uint32_t> { return doc_.children(k); }
  auto where(std::uint32_t k) const -> source_location;
  /// Reports whether the visit budget or the errors allowed are spent (accessors then return nullopt).
  auto exhausted() const -> bool { return exhausted_; }

  void report(severity level, std::uint32_t k, std::string code, std::string message,
              std::vector<diagnostic> notes = {});
  void error(std::uint32_t k, std::string code, std::string message, std::vector<diagnostic> notes = {}) {
    report(severity::error, k, std::move(code), std::move(message), std::move(notes));
  }
  auto note_at(std::uint32_t k, std::string message) const -> diagnostic;
  /// Reports a diagnostic placed by the caller (a position inside a scalar); counts errors as report() does.
  void add(diagnostic d);

  /// Reports whether a node is null: an empty or "~"/"null" plain scalar.
  auto is_null(std::uint32_t k) const -> bool;
  /// Returns a mapping's entries, with merge keys ("<<") applied (explicit keys
  /// win) and duplicate keys reported. O(entries), however many there are.
  auto mapping(std::uint32_t k, std::string_view what) -> std::optional<std::vector<entry>>;
  /// Reports every key not in allowed, suggesting the closest allowed one.
  /// (A mapping read by a key table: read_keys(), below.)
  void only_keys(const std::vector<entry>& entries, std::initializer_list<std::string_view> allowed,
                 std::string_view what);
  /// only_keys for the top of a file, where keys that start with "x-" are
  /// extension fields, ignored: the place for anchors, as in Compose files.
  void only_top_level_keys(const std::vector<entry>& entries, std::initializer_list<std::string_view> allowed,
                           std::string_view what);
  /// Reports an entry whose key is not one of `known`, suggesting the closest (the first of equals).
  void unknown_key(const entry& e, std::span<const std::string_view> known, std::string_view what);
  /// Returns a sequence's items (a view of the document, which outlives the reader).
  auto sequence(std::uint32_t k, std::string_view what) -> std::optional<std::span<const std::uint32_t>>;
  /// Returns a sequence's items, or the node itself where one scalar stands for a list.
  auto list(std::uint32_t k, std::string_view what) -> std::optional<std::vector<std::uint32_t>>;
  auto string(std::uint32_t k, std::string_view what) -> std::optional<std::string>;
  auto integer(std::uint32_t k, std::int64_t min, std::int64_t max, std::string_view what)
      -> std::optional<std::int64_t>;
  auto boolean(std::uint32_t k, std::string_view what) -> std::optional<bool>;
  /// Parses a CIDR; a bad one is reported at its offending character.
  auto cidr(std::uint32_t k, std::string_view what, host_bits mode = host_bits::reject) -> std::optional<prefix>;
  /// Parses `text`, a part of scalar k that starts `offset` bytes into its value
  /// ("a,b" lists); a bad one is reported at its offending character.
  auto cidr_in(std::uint32_t k, std::string_view text, std::size_t offset, std::string_view what, host_bits mode)
      -> std::optional<prefix>;
  auto ip(std::uint32_t k, std::string_view what) -> std::optional<address>;

 private:
  class key_index;

  auto visit(std::uint32_t k) -> bool;
  auto type_name(std::uint32_t k) const -> std::string;
  auto expect(std::uint32_t k, yaml_kind kind, std::string_view what) -> bool;
  void merge_into(const entry& merge, std::vector<entry>& out, key_index& keys);

  const yaml_document& doc_;
  std::string file_;
  std::vector<diagnostic>& out_;
  std::size_t budget_;
  std::size_t max_errors_;
  std::size_t errors_left_ = 0;
  std::size_t merge_depth_ = 0;  // merge keys being applied, innermost last (bounded by doc_.max_depth)
  bool exhausted_ = false;
};

/// One key of a mapping and what reads its value into a Section. A table of
/// them is the one list of a mapping's keys: read_keys() takes both the
/// unknown-key errors and the dispatch from it.
template <class Section>
struct key_rule {
  std::string_view key;
  /// Reads the entry; nullptr for a key read before the table runs (an owner's name).
  void (*read)(Section&, yaml_reader&, const yaml_reader::entry&);
};

/// Whether keys that start with "x-" are extension fields, ignored: the place
/// for anchors at the top of a file, as in Compose files.
enum class extension_keys : bool { refused, ignored };

/// Returns the rule of a key table for key, or nullptr. O(table).
template <class Table>
auto find_key_rule(const Table& table, std::string_view key) -> decltype(&*std::begin(table)) {
  for (const auto& rule : table) {
    if (rule.key == key) return &rule;
  }
  return nullptr;
}

/// Reports each entry whose key a key table lacks, suggesting the closest (in table order).
template <class Table>
void report_unknown_keys(yaml_reader& r, const std::vector<yaml_reader::entry>& entries, const Table& table,
                         std::string_view what, extension_keys extensions = extension_keys::refused) {
  std::vector<std::string_view> known;  // the table's keys, listed at the first unknown one
  for (const auto& e : entries) {
    if (find_key_rule(table, e.key) != nullptr || (extensions == extension_keys::ignored && e.key.starts_with("x-"))) {
      continue;
    }
    if (known.empty()) {
      for (const auto& rule : table) known.push_back(rule.key);
    }
    r.unknown_key(e, known, what);
  }
}

/// Runs the reader of each entry's key, in the mapping's order; keys the table lacks are skipped.
template <class Section, class Table>
void dispatch_keys(yaml_reader& r, const std::vector<yaml_reader::entry>& entries, const Table& table,
                   Section& section) {
  for (const auto& e : entries) {
    if (const auto* rule = find_key_rule(table, e.key); rule != nullptr && rule->read != nullptr) {
      rule->read(section, r, e);
    }
  }
}

/// Reads a mapping's entries by their key table: report_unknown_keys(), then
/// dispatch_keys(). O(entries x table).
template <class Section, class Table>
void read_keys(yaml_reader& r, const std::vector<yaml_reader::entry>& entries, const Table& table,
               std::string_view what, Section& section, extension_keys extensions = extension_keys::refused) {
  report_unknown_keys(r, entries, table, what, extensions);
  dispatch_keys(r, entries, table, section);
}

}  // namespace cidrcheck::detail
