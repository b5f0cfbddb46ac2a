#pragma once
// The constexpr, non-throwing parsers behind address, prefix and address_range.
// Each returns false and fills `failure` (code and 0-based byte offset into its
// own input) when the text is not valid.

#include <cidrcheck/detail/u128.hpp>
#include <cidrcheck/ip_version.hpp>
#include <cidrcheck/parse_error.hpp>

#include <cstdint>
#include <string_view>

namespace cidrcheck::detail {

constexpr auto is_digit(char c) noexcept -> bool { return c >= '0' && c <= '9'; }

constexpr auto hex_value(char c) noexcept -> int {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

constexpr auto fail(parse_failure& failure, parse_errc code, std::size_t offset) noexcept -> bool {
  failure = {code, static_cast<std::uint32_t>(offset)};
  return false;
}

/// Parses a dotted quad ("192.0.2.1"): four decimal octets, no leading zeros.
constexpr auto parse_v4(std::string_view s, std::uint32_t& out, parse_failure& failure) noexcept -> bool {
  std::uint32_t bits = 0;
  std::size_t i = 0;
  int octets = 0;
  for (;;) {
    std::size_t start = i;
    std::uint32_t value = 0;
    while (i < s.size() && is_digit(s[i])) {
      if (i - start == 3) return fail(failure, parse_errc::octet_out_of_range, start);
      value = value * 10 + static_cast<std::uint32_t>(s[i] - '0');
      ++i;
    }
    if (i == start) {
      if (i == s.size()) return fail(failure, s.empty() ? parse_errc::empty : parse_errc::empty_group, i);
      return fail(failure, s[i] == '.' ? parse_errc::empty_group : parse_errc::bad_character, i);
    }
    if (value > 255) return fail(failure, parse_errc::octet_out_of_range, start);
    if (i - start > 1 && s[start] == '0') return fail(failure, parse_errc::leading_zero, start);
    bits = (bits << 8) | value;
    ++octets;
    if (i == s.size()) break;
    if (s[i] != '.') return fail(failure, parse_errc::bad_character, i);
    if (octets == 4) return fail(failure, parse_errc::too_many_octets, i);
    ++i;
  }
  if (octets < 4) return fail(failure, parse_errc::too_few_octets, s.size());
  out = bits;
  return true;
}

/// Parses RFC 4291 text ("2001:db8::1", "::ffff:192.0.2.1"); hex digits of either case.
constexpr auto parse_v6(std::string_view s, uint128& out, parse_failure& failure) noexcept -> bool {
  std::uint16_t groups[8] = {};
  int count = 0;
  int double_colon_at = -1;  // index in groups where "::" stands, or -1
  std::size_t i = 0;
  if (s.empty()) return fail(failure, parse_errc::empty, 0);
  if (s[0] == ':') {
    if (s.size() < 2 || s[1] != ':') return fail(failure, parse_errc::empty_group, 0);
    double_colon_at = 0;
    i = 2;
  }
  while (i < s.size()) {
    std::size_t start = i;
    std::uint32_t value = 0;
    while (i < s.size() && hex_value(s[i]) >= 0) {
      if (i - start == 4) {
        // Five or more characters: an embedded dotted quad, or a group that is too long.
        break;
      }
      value = value * 16 + static_cast<std::uint32_t>(hex_value(s[i]));
      ++i;
    }
    if (i < s.size() && (s[i] == '.' || (i - start == 4 && hex_value(s[i]) >= 0))) {
      if (s[i] != '.') {
        std::size_t j = i;
        while (j < s.size() && is_digit(s[j])) ++j;
        if (j == s.size() || s[j] != '.') return fail(failure, parse_errc::group_too_long, start);
      }
      // An embedded IPv4 address: it must be last and takes the place of two groups.
      if (count > 6) return fail(failure, parse_errc::too_many_groups, start);
      std::uint32_t v4 = 0;
      parse_failure inner;
      if (!parse_v4(s.substr(start), v4, inner)) {
        return fail(failure, parse_errc::bad_embedded_ipv4, start + inner.offset);
      }
      groups[count++] = static_cast<std::uint16_t>(v4 >> 16);
      groups[count++] = static_cast<std::uint16_t>(v4 & 0xffff);
      i = s.size();
      break;
    }
    if (i == start) {
      if (i < s.size() && s[i] == '%') return fail(failure, parse_errc::zone_not_allowed, i);
      if (i == s.size() || s[i] == ':') return fail(failure, parse_errc::empty_group, i);
      return fail(failure, parse_errc::bad_character, i);
    }
    if (count == 8) return fail(failure, parse_errc::too_many_groups, start);
    groups[count++] = static_cast<std::uint16_t>(value);
    if (i == s.size()) break;
    if (s[i] == '%') return fail(failure, parse_errc::zone_not_allowed, i);
    if (s[i] != ':') return fail(failure, parse_errc::bad_character, i);
    ++i;
    if (i < s.size() && s[i] == ':') {
      if (double_colon_at >= 0) return fail(failure, parse_errc::multiple_double_colon, i - 1);
      double_colon_at = count;
      ++i;
    } else if (i == s.size()) {
      return fail(failure, parse_errc::empty_group, i);
    }
  }
  if (double_colon_at < 0) {
    if (count < 8) return fail(failure, parse_errc::too_few_groups, s.size());
  } else {
    // "::" stands for at least one group of zeros (RFC 4291 section 2.2).
    if (count > 7) return fail(failure, parse_errc::too_many_groups, s.size());
    int tail = count - double_colon_at;
    for (int k = 0; k < tail; ++k) {
      groups[7 - k] = groups[count - 1 - k];
      groups[count - 1 - k] = 0;
    }
    for (int k = double_colon_at; k < 8 - tail; ++k) groups[k] = 0;
  }
  uint128 bits = 0;
  for (std::uint16_t g : groups) bits = (bits << 16) | g;
  out = bits;
  return true;
}

/// Parses an address of either version; IPv6 text is recognised by its ':'.
constexpr auto parse_address(std::string_view s, ip_version& version, uint128& bits,
                             parse_failure& failure) noexcept -> bool {
  if (s.find(':') != std::string_view::npos) {
    version = ip_version::v6;
    return parse_v6(s, bits, failure);
  }
  std::uint32_t v4 = 0;
  if (!parse_v4(s, v4, failure)) return false;
  version = ip_version::v4;
  bits = v4;
  return true;
}

/// Parses the decimal prefix length that follows '/' (at `offset` in the whole text).
constexpr auto parse_length(std::string_view s, std::size_t offset, int width, int& length,
                            parse_failure& failure) noexcept -> bool {
  if (s.empty()) return fail(failure, parse_errc::bad_length, offset);
  int value = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!is_digit(s[i])) return fail(failure, parse_errc::bad_length, offset + i);
    if (i == 3) return fail(failure, parse_errc::length_out_of_range, offset);
    value = value * 10 + (s[i] - '0');
  }
  if (s.size() > 1 && s[0] == '0') return fail(failure, parse_errc::leading_zero, offset);
  if (value > width) return fail(failure, parse_errc::length_out_of_range, offset);
  length = value;
  return true;
}

}  // namespace cidrcheck::detail
