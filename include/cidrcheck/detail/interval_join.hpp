#pragma once
// Sorting and joining closed ranges in place: the bulk path shared by
// address_set_builder and collapse(), which avoids building a tree when the
// result is a flat list anyway.

#include <cidrcheck/detail/family.hpp>
#include <cidrcheck/detail/radix_sort.hpp>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <utility>
#include <vector>

namespace cidrcheck::detail {

/// Calls f(first, last) for each maximal run of the closed ranges
/// [first_of(item), last_of(item)] of items sorted by first that overlap or
/// touch: the sorted, disjoint, non-touching ranges of their union, in order.
/// The ranges are read before f sees them, so f may overwrite items already
/// read (sort_and_join joins in place). O(n).
template <class Items, class FirstOf, class LastOf, class F>
void for_each_joined(const Items& items, FirstOf first_of, LastOf last_of, F&& f) {
  auto it = std::begin(items);
  const auto end = std::end(items);
  if (it == end) return;
  auto first = first_of(*it);
  auto last = last_of(*it);
  using Bits = decltype(last);
  for (++it; it != end; ++it) {
    const Bits next_first = first_of(*it), next_last = last_of(*it);
    if (last == static_cast<Bits>(~Bits{0}) || next_first <= last + 1) {
      last = std::max(last, next_last);
    } else {
      f(first, last);
      first = next_first;
      last = next_last;
    }
  }
  f(first, last);
}

/// Sorts closed ranges [first, last] and joins those that overlap or touch,
/// leaving sorted, disjoint, non-touching ranges. O(n) for IPv4 (radix sort),
/// O(n log n) for IPv6.
template <class Bits, class Allocator>
void sort_and_join(std::vector<std::pair<Bits, Bits>, Allocator>& ranges) {
  if constexpr (width_of<Bits> == 32) {
    radix_sort(ranges, [](const std::pair<Bits, Bits>& r) { return r.first; }, 32);
  } else {
    std::sort(ranges.begin(), ranges.end());
  }
  using range = std::pair<Bits, Bits>;
  std::size_t out = 0;
  for_each_joined(
      ranges, [](const range& r) { return r.first; }, [](const range& r) { return r.second; },
      [&](Bits first, Bits last) { ranges[out++] = {first, last}; });
  ranges.resize(out);
}

}  // namespace cidrcheck::detail
