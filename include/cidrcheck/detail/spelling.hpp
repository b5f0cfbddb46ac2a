#pragma once
// "Did you mean ...?" for unknown keys, owners, rules and commands.

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::detail {

/// Returns the optimal string alignment distance: Levenshtein plus adjacent
/// transpositions, so that "nmae" is one edit from "name".
inline auto edit_distance(std::string_view a, std::string_view b) -> std::size_t {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

/// Reports whether word is one whole part of candidate, split at '-' or '_':
/// "eks" of "aws-eks", "mask" of "node_cidr_mask".
inline auto is_part_of(std::string_view word, std::string_view candidate) -> bool {
  if (word.empty() || word.size() >= candidate.size()) return false;
  for (std::size_t start = 0; start <= candidate.size();) {
    auto end = candidate.find_first_of("-_", start);
    if (end == std::string_view::npos) end = candidate.size();
    if (candidate.substr(start, end - start) == word) return true;
    start = end + 1;
  }
  return false;
}

/// Returns the candidate closest to word, or "" when none is close: at most a
/// third of the word changed (one edit at least is always allowed). A
/// candidate that has the word as one of its parts ("eks" of "aws-eks"), or is
/// one of the word's parts ("kubernetes" of "kubernetes_version"), is closer
/// than any candidate one edit away ("aks"), and farther than itself.
inline auto closest_match(std::string_view word, std::span<const std::string_view> candidates) -> std::string_view {
  std::string_view best;
  std::size_t best_distance = 0;  // in half edits, so that a part counts half an edit
  for (auto c : candidates) {
    std::size_t d = is_part_of(word, c) || is_part_of(c, word) ? 1 : 2 * edit_distance(word, c);
    if (best.empty() || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best_distance <= 2 * std::max<std::size_t>(1, word.size() / 3) ? best : std::string_view{};
}

/// Returns " (did you mean 'x'?)" for the closest candidate, or "".
inline auto did_you_mean(std::string_view word, std::span<const std::string_view> candidates) -> std::string {
  auto best = closest_match(word, candidates);
  return best.empty() ? std::string{} : " (did you mean '" + std::string(best) + "'?)";
}

}  // namespace cidrcheck::detail
