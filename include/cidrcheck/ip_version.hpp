#pragma once

#include <cstdint>

namespace cidrcheck {

/// The IP version (address family) of an address, prefix or range. `none` is the
/// version of a default-constructed, invalid value.
enum class ip_version : std::uint8_t { none = 0, v4 = 4, v6 = 6 };

/// Returns the number of bits in an address of version v: 32, 128, or 0 for none.
constexpr auto bit_width(ip_version v) noexcept -> int {
  return v == ip_version::v4 ? 32 : v == ip_version::v6 ? 128 : 0;
}

}  // namespace cidrcheck
