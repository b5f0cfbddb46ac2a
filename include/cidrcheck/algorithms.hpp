#pragma once
// Free functions over prefixes, named after Python's ipaddress.

#include <cidrcheck/address.hpp>
#include <cidrcheck/address_range.hpp>
#include <cidrcheck/address_set.hpp>
#include <cidrcheck/detail/interval_join.hpp>
#include <cidrcheck/detail/radix_sort.hpp>
#include <cidrcheck/prefix.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace cidrcheck {

/// Returns the minimal prefix cover of the union of the items' prefixes, sorted,
/// IPv4 first (Python's collapse_addresses; netaddr's cidr_merge), where
/// to_prefix(item) gives an item's prefix. O(n) for IPv4, O(n log n) for IPv6;
/// no set is built.
template <class Range, class ToPrefix>
auto collapse(const Range& items, ToPrefix to_prefix) -> std::vector<prefix> {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> v4;
  std::vector<std::pair<uint128, uint128>> v6;
  v4.reserve(std::size(items));
  for (const auto& item : items) {
    const prefix& p = to_prefix(item);
    if (p.version() == ip_version::v4) v4.emplace_back(p.network().v4_bits(), p.last().v4_bits());
    if (p.version() == ip_version::v6) v6.emplace_back(p.network().bits(), p.last().bits());
  }
  detail::sort_and_join(v4);
  detail::sort_and_join(v6);
  std::vector<prefix> out;
  out.reserve(v4.size() + v6.size());
  auto emit = [&](ip_version v) {
    return [&, v](auto start, int length) { out.push_back(prefix::containing(address::from_bits(v, start), length)); };
  };
  for (auto [first, last] : v4) detail::for_each_block(first, last, emit(ip_version::v4));
  for (auto [first, last] : v6) detail::for_each_block(first, last, emit(ip_version::v6));
  return out;
}

/// Returns the minimal prefix cover of the union of prefixes, as above.
inline auto collapse(std::span<const prefix> prefixes) -> std::vector<prefix> {
  return collapse(prefixes, [](const prefix& p) -> const prefix& { return p; });
}

/// Returns the prefixes that cover p minus q, sorted: empty when q covers p, {p}
/// when they do not overlap (Python's p.address_exclude(q), which instead
/// requires q to lie in p and yields the same blocks largest first). O(W).
inline auto exclude(const prefix& p, const prefix& q) -> std::vector<prefix> {
  if (!p.overlaps(q)) return {p};
  if (q.supernet_of(p)) return {};
  // Walk from p down to q: at each step the half not holding q is left over.
  std::vector<prefix> lower, upper;
  prefix cur = p;
  while (cur != q) {
    auto halves = cur.subnets();
    prefix low = halves[0], high = halves[1];
    if (low.supernet_of(q)) {
      upper.push_back(high);
      cur = low;
    } else {
      lower.push_back(low);
      cur = high;
    }
  }
  // Blocks below q were found in ascending order, blocks above it in descending order.
  lower.insert(lower.end(), upper.rbegin(), upper.rend());
  return lower;
}

/// Returns the minimal prefix cover of [first, last], in order (Python's
/// summarize_address_range). Throws parse_error when the two are of different
/// versions or first > last.
inline auto summarize(address first, address last) -> std::vector<prefix> {
  return address_range::make(first, last).to_prefixes();
}

namespace detail {

// One prefix of a sweep, reduced to its bits: sorting these is far cheaper
// than sorting prefixes through a comparator.
template <class Bits>
struct sweep_item {
  Bits first;
  Bits last;
  std::uint32_t index;
  std::uint8_t length;
  friend bool operator<(const sweep_item& a, const sweep_item& b) noexcept {
    return a.first != b.first ? a.first < b.first : a.length < b.length;
  }
};

template <class Bits, class F>
void sweep_family(std::vector<sweep_item<Bits>>& items, F& f) {
  if constexpr (width_of<Bits> == 32) {
    radix_sort(items, [](const sweep_item<Bits>& x) { return std::uint64_t{x.first} << 8 | x.length; }, 5);
  } else {
    std::sort(items.begin(), items.end());
  }
  // Prefixes nest or are disjoint, so after sorting by (first, length) the
  // items that contain the current one form a chain: the stack.
  std::vector<const sweep_item<Bits>*> stack;
  for (const auto& item : items) {
    while (!stack.empty() && stack.back()->last < item.first) stack.pop_back();
    for (const auto* outer : stack) f(std::size_t{outer->index}, std::size_t{item.index});
    stack.push_back(&item);
  }
}

}  // namespace detail

/// Calls f(i, j) for every pair of overlapping prefixes among items (i, j
/// indexes into items; the prefix of item i contains that of item j; equal
/// prefixes are a pair), where to_prefix(item) gives an item's prefix. The
/// pairs come grouped by family, in address order of j. O(n log n + pairs).
/// Precondition: items.size() < 2^32.
template <class Range, class ToPrefix, class F>
void for_each_overlapping_pair(const Range& items, ToPrefix to_prefix, F&& f) {
  std::vector<detail::sweep_item<std::uint32_t>> v4;
  std::vector<detail::sweep_item<uint128>> v6;
  v4.reserve(std::size(items));
  for (std::size_t k = 0; k < std::size(items); ++k) {
    const prefix& p = to_prefix(items[k]);
    auto index = static_cast<std::uint32_t>(k);
    auto length = static_cast<std::uint8_t>(p.length());
    if (p.version() == ip_version::v4) {
      v4.push_back({p.network().v4_bits(), p.last().v4_bits(), index, length});
    } else if (p.version() == ip_version::v6) {
      v6.push_back({p.network().bits(), p.last().bits(), index, length});
    }
  }
  detail::sweep_family(v4, f);
  detail::sweep_family(v6, f);
}

/// Calls f(i, j) for every pair of overlapping prefixes, as above.
template <class F>
void for_each_overlapping_pair(std::span<const prefix> prefixes, F&& f) {
  for_each_overlapping_pair(prefixes, [](const prefix& p) -> const prefix& { return p; }, f);
}

/// Returns the number of overlapping pairs among prefixes, as for_each_overlapping_pair counts them.
inline auto count_overlapping_pairs(std::span<const prefix> prefixes) -> std::uint64_t {
  std::uint64_t n = 0;
  for_each_overlapping_pair(prefixes, [&](std::size_t, std::size_t) { ++n; });
  return n;
}

}  // namespace cidrcheck
