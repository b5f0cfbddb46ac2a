#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace cidrcheck::detail {

/// Returns the first offset at or after `from` where needle occurs in text, or
/// npos (Knuth-Morris-Pratt). O(|needle| + |text| - from), whatever the text:
/// no comparison is ever repeated, unlike std::string_view::find.
inline auto find_from(std::string_view text, std::string_view needle, std::size_t from) -> std::size_t {
  if (needle.empty()) return from <= text.size() ? from : std::string_view::npos;
  // border[k]: the length of the longest proper prefix of needle[0..k] that is also its suffix.
  std::vector<std::size_t> border(needle.size(), 0);
  for (std::size_t k = 1, b = 0; k < needle.size(); ++k) {
    while (b > 0 && needle[k] != needle[b]) b = border[b - 1];
    if (needle[k] == needle[b]) ++b;
    border[k] = b;
  }
  for (std::size_t t = from, matched = 0; t < text.size(); ++t) {
    while (matched > 0 && text[t] != needle[matched]) matched = border[matched - 1];
    if (text[t] == needle[matched] && ++matched == needle.size()) return t + 1 - needle.size();
  }
  return std::string_view::npos;
}

/// Matches text against a pattern where '*' stands for any run of characters
/// (no other character is special). O(|pattern| + |text|): the text before the
/// first star must begin the text and the text after the last star end it;
/// each piece between stars is matched at its leftmost place after the one
/// before (taking the leftmost never loses a match), found by find_from().
inline auto glob_match(std::string_view pattern, std::string_view text) -> bool {
  auto first_star = pattern.find('*');
  if (first_star == std::string_view::npos) return pattern == text;
  auto head = pattern.substr(0, first_star);
  auto tail = pattern.substr(pattern.rfind('*') + 1);
  if (text.size() < head.size() + tail.size() || !text.starts_with(head) || !text.ends_with(tail)) return false;
  // The pieces between the first and the last star, inside the text between head and tail.
  auto middle = text.substr(0, text.size() - tail.size());
  std::size_t at = head.size();
  for (std::size_t p = first_star + 1; p < pattern.size() - tail.size();) {
    auto star = pattern.find('*', p);
    auto piece = pattern.substr(p, star - p);
    if (!piece.empty()) {
      auto found = find_from(middle, piece, at);
      if (found == std::string_view::npos) return false;
      at = found + piece.size();
    }
    p = star + 1;
  }
  return true;
}

}  // namespace cidrcheck::detail
