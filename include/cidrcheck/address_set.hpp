#pragma once

#include <cidrcheck/address.hpp>
#include <cidrcheck/address_range.hpp>
#include <cidrcheck/detail/family.hpp>
#include <cidrcheck/detail/icl_adapt.hpp>
#include <cidrcheck/detail/interval_join.hpp>
#include <cidrcheck/prefix.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace cidrcheck {

class address_set_builder;

/// An immutable set of addresses of both versions, kept as sorted, maximal,
/// non-touching ranges (Boost.ICL interval sets, one per version, underneath).
///
/// Build one with address_set_builder, or combine sets with | & - ^. Copies are
/// cheap (shared, immutable storage), and a set is safe to read from many
/// threads at once. Set algebra on sets of n and m ranges costs O((n + m) log(n + m)).
/// Equality is set equality: two sets built differently compare equal when they
/// hold the same addresses.
class address_set {
 public:
  /// Makes the empty set.
  address_set() = default;
  /// Makes the set of the given prefixes.
  address_set(std::initializer_list<prefix> prefixes);

  auto empty() const noexcept -> bool { return storage().v4.empty() && storage().v6.empty(); }
  /// Returns the number of maximal ranges in the set.
  auto range_count() const noexcept -> std::size_t {
    return storage().v4.iterative_size() + storage().v6.iterative_size();
  }
  /// Returns the number of addresses, saturating at 2^128 - 1 (only a set that
  /// holds all of IPv6 saturates). O(n).
  auto size() const noexcept -> uint128;

  /// Reports whether a is in the set. O(log n).
  auto contains(address a) const -> bool;
  /// Reports whether every address of r is in the set. O(log n).
  auto contains(const address_range& r) const -> bool;
  auto contains(const prefix& p) const -> bool { return contains(address_range(p)); }
  /// Reports whether any address of r is in the set. O(log n).
  auto overlaps(const address_range& r) const -> bool;
  auto overlaps(const prefix& p) const -> bool { return overlaps(address_range(p)); }
  /// Reports whether the two sets share an address.
  auto overlaps(const address_set& other) const -> bool;

  /// Calls f(address_range) for each maximal range, IPv4 first, in address order.
  template <class F>
  void for_each_range(F&& f) const {
    storage().each([&](const auto& set, ip_version v) {
      for (const auto& i : set) f(detail::to_range(v, i));
    });
  }
  /// Returns the maximal ranges, IPv4 first, in address order.
  auto ranges() const -> std::vector<address_range>;
  /// Returns the minimal prefix cover of the set, in address order (the result of
  /// Python's collapse_addresses).
  auto prefixes() const -> std::vector<prefix>;
  /// Returns the part of the set of version v.
  auto only(ip_version v) const -> address_set;

  friend auto operator|(const address_set& a, const address_set& b) -> address_set;
  friend auto operator&(const address_set& a, const address_set& b) -> address_set;
  friend auto operator-(const address_set& a, const address_set& b) -> address_set;
  friend auto operator^(const address_set& a, const address_set& b) -> address_set;
  /// Returns pool - *this: the addresses of pool that are not in the set.
  auto complement_within(const address_set& pool) const -> address_set { return pool - *this; }

  friend bool operator==(const address_set& a, const address_set& b) { return a.storage() == b.storage(); }

 private:
  friend class address_set_builder;
  friend class prefix_allocator;
  using storage_type = detail::per_family<detail::interval_set>;

  explicit address_set(storage_type&& s) : storage_(std::make_shared<const storage_type>(std::move(s))) {}
  auto storage() const noexcept -> const storage_type& {
    static const storage_type empty_storage;
    return storage_ ? *storage_ : empty_storage;
  }
  template <class Op>
  static auto combine(const address_set& a, const address_set& b, Op op) -> address_set {
    return address_set(storage_type{op(a.storage().v4, b.storage().v4), op(a.storage().v6, b.storage().v6)});
  }

  std::shared_ptr<const storage_type> storage_;  // null for the empty set
};

/// The only mutable way to make an address_set: add and remove addresses,
/// prefixes, ranges and sets in any order, then build().
///
/// Adds are buffered and merged in one sort when the builder next needs them
/// (a remove or a build), so adding n prefixes costs O(n log n) whatever the order.
/// Invalid values are ignored. Every call changes the builder (build() merges the
/// buffered adds), so a builder is never shared between threads; the sets it
/// builds are.
class address_set_builder {
 public:
  void add(address a) { add(address_range(prefix::containing(a, a.width()))); }
  void add(const prefix& p) { add(address_range(p)); }
  void add(const address_range& r) {
    if (!r.is_valid()) return;
    if (r.first().is_v4()) {
      v4_.pending.emplace_back(r.first().v4_bits(), r.last().v4_bits());
    } else {
      v6_.pending.emplace_back(r.first().bits(), r.last().bits());
    }
  }
  void add(const address_set& s) {
    for (const auto& i : s.storage().v4) v4_.pending.emplace_back(i.lower(), i.upper());
    for (const auto& i : s.storage().v6) v6_.pending.emplace_back(i.lower(), i.upper());
  }

  void remove(address a) { remove(address_range(prefix::containing(a, a.width()))); }
  void remove(const prefix& p) { remove(address_range(p)); }
  void remove(const address_range& r) {
    if (!r.is_valid()) return;
    if (r.first().is_v4()) {
      v4_.remove(detail::to_interval<std::uint32_t>(r));
    } else {
      v6_.remove(detail::to_interval<uint128>(r));
    }
  }
  void remove(const address_set& s) {
    v4_.flush();
    v6_.flush();
    v4_.merged -= s.storage().v4;
    v6_.merged -= s.storage().v6;
  }

  /// Returns the set of everything added and not removed since. The builder
  /// keeps its contents and may go on being used.
  auto build() -> address_set {
    v4_.flush();
    v6_.flush();
    return address_set(address_set::storage_type{v4_.merged, v6_.merged});
  }

 private:
  template <class Bits>
  struct family {
    detail::huge_vector<std::pair<Bits, Bits>> pending;  // added closed ranges, not yet merged
    detail::interval_set<Bits> merged;

    void remove(const detail::interval<Bits>& i) {
      flush();
      merged -= i;
    }
    // Sorts and joins the pending ranges, then adds them to merged. When merged
    // is empty (the common case: build once from a list) the joined ranges go in
    // with an end hint, which costs O(1) each.
    void flush() {
      if (pending.empty()) return;
      detail::sort_and_join(pending);
      if (merged.empty()) {
        auto hint = merged.end();
        for (const auto& [first, last] : pending) hint = merged.add(hint, detail::interval<Bits>(first, last));
      } else {
        for (const auto& [first, last] : pending) merged += detail::interval<Bits>(first, last);
      }
      pending.clear();
      pending.shrink_to_fit();
    }
  };

  family<std::uint32_t> v4_;
  family<uint128> v6_;
};

inline address_set::address_set(std::initializer_list<prefix> prefixes) {
  address_set_builder b;
  for (const auto& p : prefixes) b.add(p);
  *this = b.build();
}

inline auto address_set::size() const noexcept -> uint128 {
  uint128 total = 0;
  bool saturated = false;
  for_each_range([&](const address_range& r) {
    uint128 n = r.size();
    if (n == detail::uint128_max || total > detail::uint128_max - n) saturated = true;
    total += n;
  });
  return saturated ? detail::uint128_max : total;
}

inline auto address_set::contains(address a) const -> bool {
  if (a.is_v4()) return boost::icl::contains(storage().v4, a.v4_bits());
  if (a.is_v6()) return boost::icl::contains(storage().v6, a.bits());
  return false;
}

inline auto address_set::contains(const address_range& r) const -> bool {
  if (!r.is_valid()) return false;
  return storage().of(r.version(), [&](const auto& set) {
    using bits = typename std::decay_t<decltype(set)>::domain_type;
    return boost::icl::contains(set, detail::to_interval<bits>(r));
  });
}

inline auto address_set::overlaps(const address_range& r) const -> bool {
  if (!r.is_valid()) return false;
  return storage().of(r.version(), [&](const auto& set) {
    using bits = typename std::decay_t<decltype(set)>::domain_type;
    return boost::icl::intersects(set, detail::to_interval<bits>(r));
  });
}

inline auto address_set::overlaps(const address_set& other) const -> bool {
  return boost::icl::intersects(storage().v4, other.storage().v4) ||
         boost::icl::intersects(storage().v6, other.storage().v6);
}

inline auto address_set::ranges() const -> std::vector<address_range> {
  std::vector<address_range> out;
  out.reserve(range_count());
  for_each_range([&](const address_range& r) { out.push_back(r); });
  return out;
}

inline auto address_set::prefixes() const -> std::vector<prefix> {
  std::vector<prefix> out;
  for_each_range([&](const address_range& r) { r.for_each_prefix([&](const prefix& p) { out.push_back(p); }); });
  return out;
}

inline auto address_set::only(ip_version v) const -> address_set {
  storage_type s;
  if (v == ip_version::v4) s.v4 = storage().v4;
  if (v == ip_version::v6) s.v6 = storage().v6;
  return address_set(std::move(s));
}

inline auto operator|(const address_set& a, const address_set& b) -> address_set {
  return address_set::combine(a, b, [](const auto& x, const auto& y) { return x + y; });
}
inline auto operator&(const address_set& a, const address_set& b) -> address_set {
  return address_set::combine(a, b, [](const auto& x, const auto& y) { return x & y; });
}
inline auto operator-(const address_set& a, const address_set& b) -> address_set {
  return address_set::combine(a, b, [](const auto& x, const auto& y) { return x - y; });
}
inline auto operator^(const address_set& a, const address_set& b) -> address_set {
  return address_set::combine(a, b, [](const auto& x, const auto& y) { return x ^ y; });
}

}  // namespace cidrcheck

/// Hashes a set consistently with ==.
template <>
struct std::hash<cidrcheck::address_set> {
  auto operator()(const cidrcheck::address_set& s) const noexcept -> std::size_t {
    std::size_t h = 0;
    s.for_each_range([&](const cidrcheck::address_range& r) { h = h * 1000003 ^ std::hash<cidrcheck::address_range>{}(r); });
    return h;
  }
};
