#pragma once
// Free functions over prefixes, named after Python's ipaddress.

#include <cidrcheck/address.hpp>
#include <cidrcheck/address_range.hpp>
#include <cidrcheck/address_set.hpp>
#include <cidrcheck/detail/huge_pages.hpp>
#include <cidrcheck/detail/interval_join.hpp>
#include <cidrcheck/detail/radix_sort.hpp>
#include <cidrcheck/prefix.hpp>
#include <cidrcheck/prefix_keys.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace cidrcheck {

/// Calls f(prefix) for every prefix of the minimal cover of the union of the
/// keys' prefixes, in order, IPv4 first (Python's collapse_addresses; netaddr's
/// cidr_merge). Sorts the keys in place, so it takes them by value: move them
/// in (prefix_list::take_keys()) to spend no copy. Memory is the keys, never
/// the cover: a caller that counts or prints the prefixes streams them. O(n)
/// for IPv4 (radix sort), O(n log n) for IPv6; no set is built.
template <class F>
void for_each_collapsed(prefix_keys keys, F&& f) {
  using keys_t = prefix_keys;
  detail::radix_sort(keys.v4, [](std::uint64_t k) { return k; }, keys_t::v4_key_bits);
  std::sort(keys.v6.begin(), keys.v6.end());
  auto emit = [&](ip_version v) {
    return [&f, v](auto start, int length) { f(prefix::containing(address::from_bits(v, start), length)); };
  };
  detail::for_each_joined(keys.v4, keys_t::v4_first, keys_t::v4_last, [&](std::uint32_t first, std::uint32_t last) {
    detail::for_each_block(first, last, emit(ip_version::v4));
  });
  detail::for_each_joined(keys.v6, keys_t::v6_first, keys_t::v6_last, [&](uint128 first, uint128 last) {
    detail::for_each_block(first, last, emit(ip_version::v6));
  });
}

/// Calls f(prefix) for every prefix of the minimal cover of the union of the
/// items' prefixes, as above, where to_prefix(item) gives an item's prefix.
template <class Range, class ToPrefix, class F>
void for_each_collapsed(const Range& items, ToPrefix to_prefix, F&& f) {
  prefix_keys keys;
  keys.v4.reserve(std::size(items));
  for (const auto& item : items) keys.push_back(to_prefix(item));
  for_each_collapsed(std::move(keys), f);
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

/// Sweeps items sorted by (first, length), each a prefix of the family of
/// Bits with first_of(item) and last_of(item) its first and last address:
/// calls f(outers, item) for every item, in order, where outers (a span of
/// structs whose .item is an earlier item) holds every earlier item that
/// contains it. Prefixes nest or are disjoint, so those form a chain: a stack,
/// one item per length plus any duplicates. O(n + the pairs f reads).
template <class Bits, class Items, class FirstOf, class LastOf, class F>
void sweep_nested(const Items& items, FirstOf first_of, LastOf last_of, F&& f) {
  struct outer {
    Bits last;
    std::ranges::range_value_t<Items> item;
  };
  std::vector<outer> stack;
  stack.reserve(width_of<Bits> + 1);
  for (const auto& item : items) {
    const Bits first = first_of(item);
    while (!stack.empty() && stack.back().last < first) stack.pop_back();
    f(std::span<const outer>(stack), item);
    stack.push_back({last_of(item), item});
  }
}

// One prefix of an indexed sweep, reduced to its bits (12 bytes for IPv4):
// sorting these is far cheaper than sorting prefixes through a comparator,
// and the last address is derived from the length rather than stored.
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
void sweep_family(huge_vector<sweep_item<Bits>>& items, F& f) {
  if constexpr (width_of<Bits> == 32) {
    radix_sort(items, [](const sweep_item<Bits>& x) { return prefix_keys::v4_key(x.first, x.length); },
               prefix_keys::v4_key_bits);
  } else {
    std::sort(items.begin(), items.end());
  }
  sweep_nested<Bits>(
      items, [](const sweep_item<Bits>& x) { return x.first; }, [](const sweep_item<Bits>& x) { return x.last(); },
      [&](auto outers, const sweep_item<Bits>& item) {
        for (const auto& o : outers) f(std::size_t{o.item.index}, std::size_t{item.index});
      });
}

}  // namespace detail

/// Calls f(i, j) for every pair of overlapping prefixes among items (i, j
/// indexes into items; the prefix of item i contains that of item j; equal
/// prefixes are a pair), where to_prefix(item) gives an item's prefix. The
/// pairs come grouped by family, in address order of j. O(n log n + pairs).
/// Precondition: items.size() < 2^32.
template <class Range, class ToPrefix, class F>
void for_each_overlapping_pair(const Range& items, ToPrefix to_prefix, F&& f) {
  detail::huge_vector<detail::sweep_item<std::uint32_t>> v4;
  detail::huge_vector<detail::sweep_item<uint128>> v6;
  v4.reserve(std::size(items));
  for (std::size_t k = 0; k < std::size(items); ++k) {
    const prefix p = to_prefix(items[k]);
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

/// Returns the number of pairs of overlapping prefixes among the keys, as
/// for_each_overlapping_pair counts them. Sorts the keys in place, so it
/// takes them by value: move them in (prefix_list::take_keys()) to spend no
/// copy. O(n) for IPv4 (radix sort), O(n log n) for IPv6.
inline auto count_overlapping_pairs(prefix_keys keys) -> std::uint64_t {
  using keys_t = prefix_keys;
  std::uint64_t pairs = 0;
  auto count = [&](auto outers, const auto&) { pairs += outers.size(); };
  detail::radix_sort(keys.v4, [](std::uint64_t k) { return k; }, keys_t::v4_key_bits);
  detail::sweep_nested<std::uint32_t>(keys.v4, keys_t::v4_first, keys_t::v4_last, count);
  std::sort(keys.v6.begin(), keys.v6.end());
  detail::sweep_nested<uint128>(keys.v6, keys_t::v6_first, keys_t::v6_last, count);
  return pairs;
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
    const prefix p = to_prefix(items[k]);
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
    const prefix p = to_prefix(items[i]);
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
  prefix_keys keys;
  keys.v4.reserve(prefixes.size());
  for (const auto& p : prefixes) keys.push_back(p);
  return count_overlapping_pairs(std::move(keys));
}

}  // namespace cidrcheck
