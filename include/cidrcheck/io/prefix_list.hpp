#pragma once

#include <cidrcheck/io/diagnostic.hpp>
#include <cidrcheck/io/source_location.hpp>
#include <cidrcheck/prefix.hpp>
#include <cidrcheck/prefix_keys.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {

struct list_options;

/// One CIDR read from a plain list, with the source and line it came from.
struct list_entry {
  prefix value;
  std::uint32_t source = 0;  ///< index into prefix_list::sources
  std::uint32_t line = 0;    ///< 1-based
};

/// The CIDRs of one or more plain lists, read as one list, in input order.
///
/// Compact, for lists of millions of lines (issue 29): the CIDRs are
/// prefix_keys (8 bytes an IPv4 CIDR), and where each was read is not stored
/// per CIDR but in runs, each a stretch of CIDRs of one family on consecutive
/// lines of one source. A list without blank lines, comments or mixed families
/// is one run per file. Precondition: fewer than 2^32 CIDRs.
class prefix_list {
 public:
  std::vector<std::string> sources;  ///< file names; "<stdin>" for "-"
  std::vector<diagnostic> diagnostics;

  /// Reports whether the lists were read without errors.
  auto ok() const -> bool { return !has_errors(diagnostics); }
  /// Returns the number of CIDRs.
  auto size() const noexcept -> std::size_t { return keys_.size(); }
  /// Returns the k-th CIDR of the input, with its source and line. O(log runs).
  auto operator[](std::size_t k) const -> list_entry;
  /// Returns where an entry was read (its column is that of the line's first character).
  auto where(const list_entry& e) const -> source_location { return {sources[e.source], e.line, 1}; }
  /// The CIDRs, each family in input order.
  auto keys() const noexcept -> const prefix_keys& { return keys_; }
  /// Moves the CIDRs out, for an algorithm that sorts them in place
  /// (for_each_collapsed, count_overlapping_pairs); the list is left empty.
  auto take_keys() && -> prefix_keys;

  /// Appends p, read at `line` of sources[source]. An invalid prefix is not added.
  void push_back(const prefix& p, std::uint32_t source, std::uint32_t line);

 private:
  friend void parse_prefix_list(std::string_view text, std::string_view name, prefix_list& into,
                                const list_options& options);

  // The reader's fast path: an IPv4 CIDR as its prefix_keys::v4_key().
  void push_back_v4(std::uint64_t key, std::uint32_t source, std::uint32_t line) {
    note(ip_version::v4, source, line);
    keys_.v4.push_back(key);
  }
  // CIDRs entry, entry + 1, ... are keys position, position + 1, ... of one
  // family, read at lines line, line + 1, ... of one source.
  struct run {
    std::uint32_t entry;
    std::uint32_t line;
    std::uint32_t source;
    std::uint32_t position;
    ip_version version;
  };
  // Records where the next CIDR, of family v, was read: it extends the last run or starts one.
  void note(ip_version v, std::uint32_t source, std::uint32_t line) {
    const auto entry = static_cast<std::uint32_t>(size());
    if (!runs_.empty()) {
      const run& r = runs_.back();
      if (r.version == v && r.source == source && r.line + (entry - r.entry) == line) return;
    }
    const auto position = static_cast<std::uint32_t>(v == ip_version::v4 ? keys_.v4.size() : keys_.v6.size());
    runs_.push_back({entry, line, source, position, v});
  }

  prefix_keys keys_;
  std::vector<run> runs_;
};

/// Limits and switches for reading plain lists. The defaults suit lists of
/// millions of lines; every limit has a name that its error message uses.
struct list_options {
  std::size_t max_file_bytes = std::size_t{1} << 30;  ///< limit "max-file-bytes"
  std::size_t max_line_bytes = std::size_t{64} << 10;  ///< limit "max-line-bytes"
  std::size_t max_errors = 50;  ///< limit "max-errors": stop reporting (and reading) after this many errors
  bool allow_empty = false;     ///< accept a list without a single CIDR
  host_bits mode = host_bits::reject;
};

/// Reads plain lists: one CIDR a line; "#" starts a comment; blank lines, leading
/// and trailing blanks, CRLF line ends and a UTF-8 byte-order mark are allowed.
/// "-" reads standard input. Every bad line becomes a diagnostic at its file,
/// line and the column of the offending character. An unreadable file, a file
/// over a limit or a list without a CIDR is an error too. Never throws for bad input.
auto load_prefix_lists(std::span<const std::string> paths, const list_options& options = {}) -> prefix_list;

/// Parses the text of one list, named `name` in diagnostics, appending to `into`.
void parse_prefix_list(std::string_view text, std::string_view name, prefix_list& into,
                       const list_options& options = {});

}  // namespace cidrcheck
