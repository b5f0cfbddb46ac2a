#pragma once
// Per-family bit arithmetic. IPv4 works on std::uint32_t and IPv6 on uint128,
// so that the two families never share a number line (no false adjacency
// between 255.255.255.255 and ::).

#include <cidrcheck/detail/u128.hpp>

#include <cstdint>
#include <type_traits>

namespace cidrcheck::detail {

/// The number of bits of an address held in Bits (32 or 128).
template <class Bits>
inline constexpr int width_of = std::is_same_v<Bits, std::uint32_t> ? 32 : 128;

/// Returns the mask with the low (width - length) bits set: the host part of a /length.
/// Precondition: 0 <= length <= width.
template <class Bits>
constexpr auto host_mask(int length) noexcept -> Bits {
  constexpr int width = width_of<Bits>;
  if (length <= 0) return static_cast<Bits>(~Bits{0});
  if (length >= width) return Bits{0};
  return static_cast<Bits>((Bits{1} << (width - length)) - 1);
}

/// Returns the mask with the high `length` bits set: the network part of a /length.
template <class Bits>
constexpr auto network_mask(int length) noexcept -> Bits {
  return static_cast<Bits>(~host_mask<Bits>(length));
}

/// Returns the number of trailing zero bits of v, or the width when v is 0.
template <class Bits>
constexpr auto trailing_zeros(Bits v) noexcept -> int {
  constexpr int width = width_of<Bits>;
  if (v == 0) return width;
  if constexpr (width == 32) {
    return __builtin_ctz(v);
  } else {
    auto lo = static_cast<std::uint64_t>(v);
    if (lo != 0) return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll(static_cast<std::uint64_t>(v >> 64));
  }
}

/// Returns the number of leading zero bits of v, or the width when v is 0.
template <class Bits>
constexpr auto leading_zeros(Bits v) noexcept -> int {
  constexpr int width = width_of<Bits>;
  if (v == 0) return width;
  if constexpr (width == 32) {
    return __builtin_clz(v);
  } else {
    auto hi = static_cast<std::uint64_t>(v >> 64);
    if (hi != 0) return __builtin_clzll(hi);
    return 64 + __builtin_clzll(static_cast<std::uint64_t>(v));
  }
}

/// Returns the length of the largest prefix that starts at `first` and ends at or
/// before `last` (inclusive): the next block of the minimal prefix cover of
/// [first, last]. Precondition: first <= last.
template <class Bits>
constexpr auto largest_block_length(Bits first, Bits last) noexcept -> int {
  constexpr int width = width_of<Bits>;
  // Alignment bounds the block from above; the remaining span bounds it too.
  int align_bits = trailing_zeros(first);
  Bits span_minus_one = static_cast<Bits>(last - first);
  // The largest k with 2^k <= span, where span = span_minus_one + 1 (may overflow to 0 = 2^width).
  int span_bits = (span_minus_one == static_cast<Bits>(~Bits{0}))
                      ? width
                      : width - 1 - leading_zeros(static_cast<Bits>(span_minus_one + 1));
  int bits = align_bits < span_bits ? align_bits : span_bits;
  return width - bits;
}

/// Calls f(start, length) for each prefix of the minimal cover of [first, last], in order.
template <class Bits, class F>
constexpr void for_each_block(Bits first, Bits last, F&& f) {
  for (;;) {
    int length = largest_block_length(first, last);
    f(first, length);
    Bits block_last = static_cast<Bits>(first | host_mask<Bits>(length));
    if (block_last >= last) return;
    first = static_cast<Bits>(block_last + 1);
  }
}

}  // namespace cidrcheck::detail
