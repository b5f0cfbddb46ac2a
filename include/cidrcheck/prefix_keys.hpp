#pragma once
// Prefixes as sortable integers, one array per family: the compact form in
// which the set tools hold, sort and sweep lists of millions of prefixes
// (issue 29). An IPv4 prefix is one 64-bit key, 8 bytes against a prefix's
// 32; an IPv6 prefix is a v6_key of 24.

#include <cidrcheck/detail/family.hpp>
#include <cidrcheck/detail/huge_pages.hpp>
#include <cidrcheck/prefix.hpp>

#include <compare>
#include <cstddef>
#include <cstdint>

namespace cidrcheck {

/// An IPv6 prefix as the two halves of its network and its length. Keys
/// order as their prefixes do: by network, then length.
struct v6_key {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  std::uint8_t length = 0;

  friend constexpr auto operator<=>(const v6_key&, const v6_key&) noexcept = default;
};

/// Prefixes in compact form, each family in the order they were added.
struct prefix_keys {
  /// The bits of an IPv4 key below its network: lengths 0..32.
  static constexpr int v4_length_bits = 6;
  /// The bits an IPv4 key uses: a radix sort of them takes three passes.
  static constexpr int v4_key_bits = 32 + v4_length_bits;

  /// IPv4 prefixes, each network << 6 | length: the keys order as integers
  /// as their prefixes do, by network, then length.
  detail::huge_vector<std::uint64_t> v4;
  detail::huge_vector<v6_key> v6;

  static constexpr auto v4_key(std::uint32_t network, int length) noexcept -> std::uint64_t {
    return std::uint64_t{network} << v4_length_bits | static_cast<std::uint64_t>(length);
  }
  static constexpr auto v4_length(std::uint64_t key) noexcept -> int {
    return static_cast<int>(key & ((1u << v4_length_bits) - 1));
  }
  static constexpr auto v4_first(std::uint64_t key) noexcept -> std::uint32_t {
    return static_cast<std::uint32_t>(key >> v4_length_bits);
  }
  static constexpr auto v4_last(std::uint64_t key) noexcept -> std::uint32_t {
    return v4_first(key) | detail::host_mask<std::uint32_t>(v4_length(key));
  }
  static constexpr auto v4_prefix(std::uint64_t key) noexcept -> prefix {
    return prefix::containing(address::v4(v4_first(key)), v4_length(key));
  }

  static constexpr auto v6_first(const v6_key& k) noexcept -> uint128 { return uint128{k.high} << 64 | k.low; }
  static constexpr auto v6_last(const v6_key& k) noexcept -> uint128 {
    return v6_first(k) | detail::host_mask<uint128>(k.length);
  }
  static constexpr auto v6_prefix(const v6_key& k) noexcept -> prefix {
    return prefix::containing(address::v6(k.high, k.low), k.length);
  }

  /// Appends p to the keys of its family; an invalid prefix is not added.
  void push_back(const prefix& p) {
    if (p.version() == ip_version::v4) {
      v4.push_back(v4_key(p.network().v4_bits(), p.length()));
    } else if (p.version() == ip_version::v6) {
      auto bits = p.network().bits();
      v6.push_back({static_cast<std::uint64_t>(bits >> 64), static_cast<std::uint64_t>(bits),
                    static_cast<std::uint8_t>(p.length())});
    }
  }

  /// The number of prefixes of both families.
  auto size() const noexcept -> std::size_t { return v4.size() + v6.size(); }
};

}  // namespace cidrcheck
