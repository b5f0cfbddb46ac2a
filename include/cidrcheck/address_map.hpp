#pragma once

#include <cidrcheck/address.hpp>
#include <cidrcheck/address_range.hpp>
#include <cidrcheck/detail/icl_adapt.hpp>
#include <cidrcheck/prefix.hpp>

#include <boost/icl/set.hpp>  // lets std::set values aggregate by union

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace cidrcheck {

/// A map from address space to values that aggregate where they overlap
/// (Boost.ICL's interval_map underneath, one per version).
///
/// add(r, v) combines v into every piece of r with +=, splitting pieces where
/// needed, so each piece of space carries the combination of everything added
/// over it. With T = std::set<owner> this answers "which owners cover each
/// piece of space". Neighbouring pieces with equal values are joined.
/// T must be default-constructible, equality-comparable and have +=, and the
/// default T must be the identity of += (pieces whose value equals T{} vanish).
/// Adding a range costs O(k log n), k the number of pieces it touches.
/// The const members may run on many threads at once (when T's const members
/// may); add() changes the map and needs it to itself.
template <class T>
class address_map {
 public:
  using value_type = T;

  /// Combines value into every piece of r; an invalid r adds nothing. What T's
  /// copy and += throw propagates.
  void add(const address_range& r, const T& value) {
    if (!r.is_valid()) return;
    maps_.of(r.version(), [&](auto& map) {
      using bits = typename std::decay_t<decltype(map)>::domain_type;
      map += std::make_pair(detail::to_interval<bits>(r), value);
    });
  }
  void add(const prefix& p, const T& value) { add(address_range(p), value); }

  auto empty() const noexcept -> bool { return maps_.v4.empty() && maps_.v6.empty(); }
  /// Returns the number of pieces (maximal ranges with one value).
  auto piece_count() const noexcept -> std::size_t { return maps_.v4.iterative_size() + maps_.v6.iterative_size(); }

  /// Returns the value at a, or nullptr where nothing was added. O(log n).
  auto find(address a) const -> const T* {
    if (!a.is_valid()) return nullptr;
    return maps_.of(a.version(), [&](const auto& map) -> const T* {
      using bits = typename std::decay_t<decltype(map)>::domain_type;
      auto it = map.find(static_cast<bits>(a.bits()));
      return it == map.end() ? nullptr : &it->second;
    });
  }

  /// Calls f(address_range, const T&) for each piece, IPv4 first, in address order.
  template <class F>
  void for_each(F&& f) const {
    maps_.each([&](const auto& map, ip_version v) {
      for (const auto& [interval, value] : map) f(detail::to_range(v, interval), value);
    });
  }
  /// Calls f(address_range, const T&) for each piece that overlaps r, clipped to r.
  template <class F>
  void for_each_in(const address_range& r, F&& f) const {
    if (!r.is_valid()) return;
    maps_.of(r.version(), [&](const auto& map) {
      using bits = typename std::decay_t<decltype(map)>::domain_type;
      auto window = detail::to_interval<bits>(r);
      auto [lo, hi] = map.equal_range(window);
      for (auto it = lo; it != hi; ++it) f(detail::to_range(r.version(), it->first & window), it->second);
    });
  }
  /// Returns every piece with its value, IPv4 first, in address order.
  auto pieces() const -> std::vector<std::pair<address_range, T>> {
    std::vector<std::pair<address_range, T>> out;
    out.reserve(piece_count());
    for_each([&](const address_range& r, const T& v) { out.emplace_back(r, v); });
    return out;
  }

  friend bool operator==(const address_map& a, const address_map& b) { return a.maps_ == b.maps_; }

 private:
  template <class Bits>
  using map_of = detail::interval_map<Bits, T>;
  detail::per_family<map_of> maps_;
};

}  // namespace cidrcheck
