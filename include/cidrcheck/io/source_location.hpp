#pragma once

#include <compare>
#include <cstdint>
#include <string>

namespace cidrcheck {

/// Where something was read: a file (or "<stdin>"), a 1-based line and a
/// 1-based column counted in bytes. A line or column of 0 means unknown.
struct source_location {
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  friend auto operator<=>(const source_location&, const source_location&) = default;
  friend bool operator==(const source_location&, const source_location&) = default;
};

/// Returns "file:line:column", "file:line" or "file", as much as is known
/// (GNU style, so editors and CI annotators can jump to it).
inline auto to_string(const source_location& where) -> std::string {
  std::string out = where.file;
  if (where.line != 0) {
    out += ':' + std::to_string(where.line);
    if (where.column != 0) out += ':' + std::to_string(where.column);
  }
  return out;
}

}  // namespace cidrcheck
