#pragma once
// 128-bit unsigned arithmetic for IPv6 bits and address counts.

#include <cstdint>
#include <string>

namespace cidrcheck {

/// An unsigned 128-bit integer: the bits of an IPv6 address, or a count of
/// addresses. GCC and Clang provide it natively; cidrcheck requires one of them.
__extension__ typedef unsigned __int128 uint128;

namespace detail {
inline constexpr uint128 uint128_max = ~uint128{0};
}  // namespace detail

/// Returns the decimal text of a 128-bit count ("18446744073709551616" for the
/// addresses of a /64), as address_range::size(), prefix_allocator::count_fitting()
/// and the capacity functions count; JSON and Python print such counts exactly.
inline auto to_decimal(uint128 v) -> std::string {
  if (v == 0) return "0";
  char buf[40];
  int i = 40;
  while (v != 0) {
    buf[--i] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  }
  return std::string(buf + i, buf + 40);
}

}  // namespace cidrcheck
