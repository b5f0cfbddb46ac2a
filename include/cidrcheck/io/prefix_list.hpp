#pragma once

#include <cidrcheck/io/diagnostic.hpp>
#include <cidrcheck/io/source_location.hpp>
#include <cidrcheck/prefix.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {

/// One CIDR read from a plain list, with the source and line it came from.
struct list_entry {
  prefix value;
  std::uint32_t source = 0;  ///< index into prefix_list::sources
  std::uint32_t line = 0;    ///< 1-based
};

/// The CIDRs of one or more plain lists, read as one list, in input order.
struct prefix_list {
  std::vector<std::string> sources;  ///< file names; "<stdin>" for "-"
  std::vector<list_entry> entries;
  std::vector<diagnostic> diagnostics;

  /// Reports whether the lists were read without errors.
  auto ok() const -> bool { return !has_errors(diagnostics); }
  /// Returns where an entry was read (its column is that of the line's first character).
  auto where(const list_entry& e) const -> source_location { return {sources[e.source], e.line, 1}; }
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
