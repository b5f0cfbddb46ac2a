#pragma once
// Small pieces of report text shared by the formats.

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace cidrcheck::cli {

/// Returns "1 error", "2 errors".
inline auto plural(std::size_t n, const char* word) -> std::string {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// Returns s padded with spaces to width characters (bytes; report text is ASCII).
inline auto pad(std::string s, std::size_t width) -> std::string {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

/// Appends rows as a table indented by two spaces, each column as wide as its
/// widest cell and two spaces apart; the last column is not padded.
inline void append_table(std::string& out, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (std::size_t k = 0; k < row.size(); ++k) widths[k] = std::max(widths[k], row[k].size());
  }
  for (const auto& row : rows) {
    std::string line = " ";
    for (std::size_t k = 0; k < row.size(); ++k) line += " " + (k + 1 < row.size() ? pad(row[k], widths[k]) + " " : row[k]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
}

}  // namespace cidrcheck::cli
