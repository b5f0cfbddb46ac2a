#pragma once

#include <cidrcheck/detail/parse_impl.hpp>
#include <cidrcheck/detail/u128.hpp>
#include <cidrcheck/ip_version.hpp>
#include <cidrcheck/parse_error.hpp>

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace cidrcheck {

/// An IPv4 or IPv6 address. Regular, trivially copyable, no allocation.
///
/// A default-constructed address is invalid (version() == ip_version::none).
/// Addresses order by version first, so every IPv4 address sorts before every
/// IPv6 one; within a version they order numerically. IPv4-mapped IPv6 addresses
/// (::ffff:0:0/96) are IPv6 addresses: they never equal or neighbour an IPv4 one.
class address {
 public:
  /// The longest text to_chars() writes ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff" is 39;
  /// "::ffff:255.255.255.255" is 22).
  static constexpr std::size_t max_text_length = 39;

  constexpr address() noexcept = default;

  /// Returns the IPv4 address whose 32 bits are `bits` (192.0.2.1 is 0xc0000201).
  static constexpr auto v4(std::uint32_t bits) noexcept -> address { return {ip_version::v4, 0, bits}; }
  /// Returns the IPv6 address whose high and low 64 bits are given.
  static constexpr auto v6(std::uint64_t hi, std::uint64_t lo) noexcept -> address {
    return {ip_version::v6, hi, lo};
  }
  /// Returns the IPv6 address whose 128 bits are `bits`.
  static constexpr auto v6(uint128 bits) noexcept -> address {
    return {ip_version::v6, static_cast<std::uint64_t>(bits >> 64), static_cast<std::uint64_t>(bits)};
  }
  /// Returns the address of version v whose bits are the low bit_width(v) bits of `bits`;
  /// invalid for ip_version::none.
  static constexpr auto from_bits(ip_version v, uint128 bits) noexcept -> address {
    if (v == ip_version::v4) return v4(static_cast<std::uint32_t>(bits));
    if (v == ip_version::v6) return v6(bits);
    return {};
  }

  /// Parses a dotted quad ("192.0.2.1") or RFC 4291 text ("2001:db8::1",
  /// "::ffff:192.0.2.1"). Octets with leading zeros and IPv6 zones are refused.
  /// Throws parse_error (a std::invalid_argument) naming the input and position.
  static auto parse(std::string_view text) -> address {
    auto r = try_parse(text);
    if (!r) throw parse_error(parse_kind::address, text, r.error());
    return *r;
  }
  /// Parses like parse() but reports a failure in the result instead of throwing.
  static constexpr auto try_parse(std::string_view text) noexcept -> result<address> {
    ip_version v = ip_version::none;
    uint128 bits = 0;
    parse_failure failure;
    if (!detail::parse_address(text, v, bits, failure)) return failure;
    return from_bits(v, bits);
  }

  constexpr auto version() const noexcept -> ip_version { return version_; }
  constexpr auto is_valid() const noexcept -> bool { return version_ != ip_version::none; }
  constexpr auto is_v4() const noexcept -> bool { return version_ == ip_version::v4; }
  constexpr auto is_v6() const noexcept -> bool { return version_ == ip_version::v6; }
  /// Returns the number of bits of this address's version (32, 128, or 0 if invalid).
  constexpr auto width() const noexcept -> int { return bit_width(version_); }

  /// Returns the 32 bits of an IPv4 address. Precondition: is_v4().
  constexpr auto v4_bits() const noexcept -> std::uint32_t { return static_cast<std::uint32_t>(lo_); }
  /// Returns the bits of the address, an IPv4 one in the low 32 bits.
  constexpr auto bits() const noexcept -> uint128 { return (uint128{hi_} << 64) | lo_; }

  /// Returns the next address, or an invalid one past the last address of the version.
  constexpr auto next() const noexcept -> address {
    if (!is_valid() || bits() == max_bits()) return {};
    return from_bits(version_, bits() + 1);
  }
  /// Returns the previous address, or an invalid one before the first address of the version.
  constexpr auto prev() const noexcept -> address {
    if (!is_valid() || bits() == 0) return {};
    return from_bits(version_, bits() - 1);
  }

  /// Writes the canonical text (dotted quad; RFC 5952 for IPv6, with the dotted
  /// tail for IPv4-mapped addresses) to out, which must hold max_text_length
  /// chars, and returns the end. An invalid address writes "invalid".
  constexpr auto to_chars(char* out) const noexcept -> char*;
  /// Appends the canonical text to out.
  void append_to(std::string& out) const {
    char buf[max_text_length];
    out.append(buf, to_chars(buf));
  }
  /// Returns the canonical text.
  auto to_string() const -> std::string {
    std::string s;
    append_to(s);
    return s;
  }

  friend constexpr auto operator<=>(const address&, const address&) noexcept = default;
  friend constexpr bool operator==(const address&, const address&) noexcept = default;

 private:
  constexpr address(ip_version v, std::uint64_t hi, std::uint64_t lo) noexcept : version_(v), hi_(hi), lo_(lo) {}
  constexpr auto max_bits() const noexcept -> uint128 {
    return version_ == ip_version::v4 ? uint128{0xffffffffu} : detail::uint128_max;
  }

  // The version comes first so that the defaulted comparison orders by version.
  // IPv6 bits are kept as two 64-bit halves: the type stays 24 bytes and 8-aligned.
  ip_version version_ = ip_version::none;
  std::uint64_t hi_ = 0;
  std::uint64_t lo_ = 0;
};

namespace detail {

constexpr auto write_decimal(char* out, unsigned v) noexcept -> char* {
  if (v >= 100) *out++ = static_cast<char>('0' + v / 100);
  if (v >= 10) *out++ = static_cast<char>('0' + v / 10 % 10);
  *out++ = static_cast<char>('0' + v % 10);
  return out;
}

constexpr auto write_v4(char* out, std::uint32_t bits) noexcept -> char* {
  for (int shift = 24; shift >= 0; shift -= 8) {
    out = write_decimal(out, (bits >> shift) & 0xff);
    if (shift != 0) *out++ = '.';
  }
  return out;
}

constexpr auto write_v6(char* out, uint128 bits) noexcept -> char* {
  constexpr char hex[] = "0123456789abcdef";
  unsigned groups[8] = {};
  for (int k = 0; k < 8; ++k) groups[k] = static_cast<unsigned>(bits >> (112 - 16 * k)) & 0xffff;
  // IPv4-mapped addresses keep their dotted tail (RFC 5952 section 5).
  bool mapped = (bits >> 32) == 0xffff;
  int last_group = mapped ? 6 : 8;
  // The longest run of two or more zero groups is shortened to "::"; the first wins a tie.
  int best_at = -1, best_len = 1;
  for (int k = 0; k < last_group;) {
    if (groups[k] != 0) {
      ++k;
      continue;
    }
    int run = k;
    while (run < last_group && groups[run] == 0) ++run;
    if (run - k > best_len) {
      best_at = k;
      best_len = run - k;
    }
    k = run;
  }
  for (int k = 0; k < last_group;) {
    if (k == best_at) {
      *out++ = ':';
      *out++ = ':';
      k += best_len;
      continue;
    }
    if (k != 0 && k != best_at + best_len) *out++ = ':';
    unsigned g = groups[k];
    bool started = false;
    for (int shift = 12; shift >= 0; shift -= 4) {
      unsigned digit = (g >> shift) & 0xf;
      if (digit != 0 || started || shift == 0) {
        *out++ = hex[digit];
        started = true;
      }
    }
    ++k;
  }
  if (mapped) {
    if (best_at + best_len != last_group) *out++ = ':';
    out = write_v4(out, static_cast<std::uint32_t>(bits));
  }
  return out;
}

}  // namespace detail

constexpr auto address::to_chars(char* out) const noexcept -> char* {
  switch (version_) {
    case ip_version::v4: return detail::write_v4(out, v4_bits());
    case ip_version::v6: return detail::write_v6(out, bits());
    case ip_version::none: break;
  }
  for (char c : std::string_view("invalid")) *out++ = c;
  return out;
}

}  // namespace cidrcheck

/// Hashes an address consistently with ==.
template <>
struct std::hash<cidrcheck::address> {
  auto operator()(const cidrcheck::address& a) const noexcept -> std::size_t {
    auto bits = a.bits();
    auto h = static_cast<std::uint64_t>(bits) ^ (static_cast<std::uint64_t>(bits >> 64) * 0x9e3779b97f4a7c15ull);
    return static_cast<std::size_t>(h ^ (static_cast<std::uint64_t>(a.version()) << 56));
  }
};
