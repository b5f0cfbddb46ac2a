#pragma once

#include <string_view>

namespace cidrcheck::detail {

/// Matches text against a pattern where '*' stands for any run of characters.
/// Linear in practice: backtracks only to the last star.
inline auto glob_match(std::string_view pattern, std::string_view text) -> bool {
  std::size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace cidrcheck::detail
