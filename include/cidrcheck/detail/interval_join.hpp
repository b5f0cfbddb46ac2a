#pragma once
// Sorting and joining closed ranges in place: the bulk path shared by
// address_set_builder and collapse(), which avoids building a tree when the
// result is a flat list anyway.

#include <cidrcheck/detail/family.hpp>
#include <cidrcheck/detail/radix_sort.hpp>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace cidrcheck::detail {

/// Sorts closed ranges [first, last] and joins those that overlap or touch,
/// leaving sorted, disjoint, non-touching ranges. O(n) for IPv4 (radix sort),
/// O(n log n) for IPv6.
template <class Bits>
void sort_and_join(std::vector<std::pair<Bits, Bits>>& ranges) {
  if (ranges.empty()) return;
  if constexpr (width_of<Bits> == 32) {
    radix_sort(ranges, [](const std::pair<Bits, Bits>& r) { return r.first; }, 32);
  } else {
    std::sort(ranges.begin(), ranges.end());
  }
  std::size_t out = 0;
  for (std::size_t k = 1; k < ranges.size(); ++k) {
    auto& cur = ranges[out];
    const auto& next = ranges[k];
    bool touches = cur.second == static_cast<Bits>(~Bits{0}) || next.first <= cur.second + 1;
    if (touches) {
      cur.second = std::max(cur.second, next.second);
    } else {
      ranges[++out] = next;
    }
  }
  ranges.resize(out + 1);
}

}  // namespace cidrcheck::detail
