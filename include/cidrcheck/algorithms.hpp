#pragma once
// Free functions over prefixes, named after Python's ipaddress.

#include <cidrcheck/address.hpp>
#include <cidrcheck/address_range.hpp>
#include <cidrcheck/address_set.hpp>
#include <cidrcheck/detail/huge_pages.hpp>
#include <cidrcheck/detail/interval_join.hpp>
#include <cidrcheck/detail/radix_sort.hpp>
#include <cidrcheck/prefix.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace cidrcheck {

/// Calls f(prefix) for every prefix of the minimal cover of the union of the
/// items' prefixes, in order, IPv4 first (Python's collapse_addresses; netaddr's
/// cidr_merge), where to_prefix(item) gives an item's prefix. Memory is the
/// joined ranges, never the cover: a caller that counts or prints the prefixes
/// streams them. O(n) for IPv4, O(n log n) for IPv6; no set is built.
template <class Range, class ToPrefix, class F>
void for_each_collapsed(const Range& items, ToPrefix to_prefix, F&& f) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> v4;
  std::vector<std::pair<uint128, uint128>> v6;
  detail::reserve_huge(v4, std::size(items));
  for (const auto& item : items) {
    const prefix& p = to_prefix(item);
    if (p.version() == ip_version::v4) v4.emplace_back(p.network().v4_bits(), p.last().v4_bits());
    if (p.version() == ip_version::v6) v6.emplace_back(p.network().bits(), p.last().bits());
  }
  detail::sort_and_join(v4);
  detail::sort_and_join(v6);
  auto emit = [&](ip_version v) {
    return [&f, v](auto start, int length) { f(prefix::containing(address::from_bits(v, start), length)); };
  };
  for (auto [first, last] : v4) detail::for_each_block(first, last, emit(ip_version::v4));
  for (auto [first, last] : v6) detail::for_each_block(first, last, emit(ip_version::v6));
}

/// Returns the minimal prefix cover of the union of the items' prefixes, sorted,
/// IPv4 first: for_each_collapsed's prefixes in a vector.
template <class Range, class ToPrefix>
auto collapse(const Range& items, ToPrefix to_prefix) -> std::vector<prefix> {
  std::vector<prefix> out;
  for_each_collapsed(items, to_prefix, [&](const prefix& p) { out.push_back(p); });
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

// One prefix of a sweep, reduced to its bits (12 bytes for IPv4): sorting
// these is far cheaper than sorting prefixes through a comparator, and the
// last address is derived from the length rather than stored.
template <class Bits>
struct sweep_item {
  Bits first;
  std::uint32_t index;
  std::uint8_t length;
  auto last() const noexcept -> Bits { return first | host_mask<Bits>(length); }
  friend bool operator<(const sweep_item& a, const sweep_item& b) noexcept {
    return a.first != b.first ? a.first < b.first : a.length < b.length;
  }
};

template <class Bits, class F>
void sweep_family(std::vector<sweep_item<Bits>>& items, F& f) {
  if constexpr (width_of<Bits> == 32) {
    // (first, length) in 38 bits: lengths 0..32 take 6.
    radix_sort(items, [](const sweep_item<Bits>& x) { return std::uint64_t{x.first} << 6 | x.length; }, 38);
  } else {
    std::sort(items.begin(), items.end());
  }
  // Prefixes nest or are disjoint, so after sorting by (first, length) the
  // items that contain the current one form a chain: the stack, at most one
  // item per length.
  struct outer {
    Bits last;
    std::uint32_t index;
  };
  std::vector<outer> stack;
  stack.reserve(width_of<Bits> + 1);
  for (const auto& item : items) {
    while (!stack.empty() && stack.back().last < item.first) stack.pop_back();
    for (const auto& o : stack) f(std::size_t{o.index}, std::size_t{item.index});
    stack.push_back({item.last(), item.index});
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
  detail::reserve_huge(v4, std::size(items));
  for (std::size_t k = 0; k < std::size(items); ++k) {
    const prefix& p = to_prefix(items[k]);
    auto index = static_cast<std::uint32_t>(k);
    auto length = static_cast<std::uint8_t>(p.length());
    if (p.version() == ip_version::v4) {
      v4.push_back({p.network().v4_bits(), index, length});
    } else if (p.version() == ip_version::v6) {
      v6.push_back({p.network().bits(), index, length});
    }
  }
  detail::sweep_family(v4, f);
  detail::sweep_family(v6, f);
}

/// Calls f(i, j) for every pair of overlapping prefixes among items, as
/// above, but with i < j and in the order of (i, j): all pairs of item 0 first,
/// each item's partners in index order. Memory is O(n) whatever the number of
/// pairs (an index sorted by family, address and length, and the partners of
/// one item at a time), so pairs can be streamed out as they come.
/// O(n W log n + pairs log n), W the family's width. Precondition: items.size() < 2^32.
template <class Range, class ToPrefix, class F>
void for_each_overlapping_pair_in_order(const Range& items, ToPrefix to_prefix, F&& f) {
  struct key {
    ip_version version;
    address network;
    int length;
    auto operator<=>(const key&) const = default;
  };
  auto key_of = [&](std::uint32_t k) {
    const prefix& p = to_prefix(items[k]);
    return key{p.version(), p.network(), p.length()};
  };
  std::vector<std::uint32_t> order;
  order.reserve(std::size(items));
  for (std::size_t k = 0; k < std::size(items); ++k) {
    if (to_prefix(items[k]).is_valid()) order.push_back(static_cast<std::uint32_t>(k));
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    auto ka = key_of(a), kb = key_of(b);
    return ka != kb ? ka < kb : a < b;
  });
  auto below = [&](std::uint32_t k, const key& x) { return key_of(k) < x; };
  auto above = [&](const key& x, std::uint32_t k) { return x < key_of(k); };
  std::vector<std::uint32_t> partners;
  for (std::size_t i = 0; i < std::size(items); ++i) {
    const prefix& p = to_prefix(items[i]);
    if (!p.is_valid()) continue;
    auto index = static_cast<std::uint32_t>(i);
    partners.clear();
    auto take = [&](auto first, auto last) {
      for (auto it = first; it != last; ++it) {
        if (*it > index) partners.push_back(*it);
      }
    };
    // Inside p, and those of p's address that are shorter: one run of the order.
    auto from = std::lower_bound(order.begin(), order.end(), key{p.version(), p.network(), 0}, below);
    auto to = std::upper_bound(from, order.end(), key{p.version(), p.last(), 255}, above);
    take(from, to);
    // Blocks that contain p at a lower address: for each shorter length, one exact key.
    for (int length = 0; length < p.length(); ++length) {
      auto outer = p.supernet(length);
      if (outer.network() == p.network()) continue;
      auto [a, b] = std::equal_range(order.begin(), from, key{p.version(), outer.network(), length},
                                     [&](const auto& x, const auto& y) {
                                       if constexpr (std::is_same_v<std::decay_t<decltype(x)>, key>) {
                                         return x < key_of(y);
                                       } else {
                                         return key_of(x) < y;
                                       }
                                     });
      take(a, b);
    }
    std::sort(partners.begin(), partners.end());
    for (auto j : partners) f(std::size_t{index}, std::size_t{j});
  }
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
