#pragma once

#include <cidrcheck/address.hpp>
#include <cidrcheck/detail/family.hpp>
#include <cidrcheck/prefix.hpp>

#include <compare>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck {

/// An inclusive range of addresses of one version, first() through last().
///
/// Regular and trivially copyable. A default-constructed range is invalid; a
/// valid one is never empty. Ranges order by (first, last).
class address_range {
 public:
  constexpr address_range() noexcept = default;
  /// Returns the range that a prefix covers.
  constexpr explicit address_range(const prefix& p) noexcept : first_(p.network()), last_(p.last()) {}

  /// Returns the range [first, last], or a failure when the two are of different
  /// versions (family_mismatch), invalid, or first > last (range_reversed).
  static constexpr auto try_make(address first, address last) noexcept -> result<address_range> {
    if (!first.is_valid() || first.version() != last.version()) return parse_failure{parse_errc::family_mismatch, 0};
    if (last < first) return parse_failure{parse_errc::range_reversed, 0};
    return address_range(first, last);
  }
  /// Returns the range [first, last]. Throws parse_error like try_make() fails.
  static auto make(address first, address last) -> address_range {
    auto r = try_make(first, last);
    if (!r) throw parse_error(parse_kind::range, first.to_string() + "-" + last.to_string(), r.error());
    return *r;
  }

  /// Parses "first-last" ("10.0.0.0-10.0.0.255", "2001:db8::-2001:db8::ff").
  /// Throws parse_error.
  static auto parse(std::string_view text) -> address_range {
    auto r = try_parse(text);
    if (!r) throw parse_error(parse_kind::range, text, r.error());
    return *r;
  }
  /// Parses like parse() but reports a failure in the result instead of throwing.
  static constexpr auto try_parse(std::string_view text) noexcept -> result<address_range> {
    auto dash = text.find('-');
    if (dash == std::string_view::npos) {
      auto only = address::try_parse(text);
      if (!only) return only.error();
      return parse_failure{parse_errc::missing_dash, static_cast<std::uint32_t>(text.size())};
    }
    auto first = address::try_parse(text.substr(0, dash));
    if (!first) return first.error();
    auto last = address::try_parse(text.substr(dash + 1));
    if (!last) return parse_failure{last.error().code, static_cast<std::uint32_t>(dash + 1 + last.error().offset)};
    return try_make(*first, *last);
  }

  constexpr auto first() const noexcept -> address { return first_; }
  constexpr auto last() const noexcept -> address { return last_; }
  constexpr auto version() const noexcept -> ip_version { return first_.version(); }
  constexpr auto is_valid() const noexcept -> bool { return first_.is_valid(); }

  /// Returns the number of addresses, saturating at 2^128 - 1 (only the whole IPv6 space saturates).
  constexpr auto size() const noexcept -> uint128 {
    if (!is_valid()) return 0;
    uint128 span = last_.bits() - first_.bits();
    return span == detail::uint128_max ? span : span + 1;
  }

  /// Reports whether a lies in the range.
  constexpr auto contains(address a) const noexcept -> bool {
    return is_valid() && a.version() == version() && first_ <= a && a <= last_;
  }
  /// Reports whether other lies entirely in the range.
  constexpr auto contains(const address_range& other) const noexcept -> bool {
    return other.is_valid() && contains(other.first_) && contains(other.last_);
  }
  /// Reports whether the two ranges share any address.
  constexpr auto overlaps(const address_range& other) const noexcept -> bool {
    return is_valid() && other.version() == version() && first_ <= other.last_ && other.first_ <= last_;
  }

  /// Calls f(prefix) for each block of the minimal prefix cover of the range, in
  /// order, without allocating. The cover has at most 2 * width() - 2 blocks.
  template <class F>
  constexpr void for_each_prefix(F&& f) const {
    if (!is_valid()) return;
    auto v = version();
    auto emit = [&](auto start, int length) { f(prefix::containing(address::from_bits(v, start), length)); };
    if (first_.is_v4()) {
      detail::for_each_block<std::uint32_t>(first_.v4_bits(), last_.v4_bits(), emit);
    } else {
      detail::for_each_block<uint128>(first_.bits(), last_.bits(), emit);
    }
  }
  /// Returns the minimal prefix cover of the range, in order (Python's
  /// summarize_address_range, netipx's Prefixes).
  auto to_prefixes() const -> std::vector<prefix> {
    std::vector<prefix> out;
    for_each_prefix([&](const prefix& p) { out.push_back(p); });
    return out;
  }
  /// Returns the prefix that is exactly this range, or nullopt when there is none.
  constexpr auto to_prefix() const noexcept -> std::optional<prefix> {
    if (!is_valid()) return std::nullopt;
    int length = first_.is_v4() ? detail::largest_block_length<std::uint32_t>(first_.v4_bits(), last_.v4_bits())
                                : detail::largest_block_length<uint128>(first_.bits(), last_.bits());
    auto p = prefix::containing(first_, length);
    if (p.last() != last_) return std::nullopt;
    return p;
  }

  /// The longest text to_chars() writes.
  static constexpr std::size_t max_text_length = 2 * address::max_text_length + 1;
  /// Writes "first-last" to out (max_text_length chars) and returns the end.
  constexpr auto to_chars(char* out) const noexcept -> char* {
    out = first_.to_chars(out);
    if (!is_valid()) return out;
    *out++ = '-';
    return last_.to_chars(out);
  }
  void append_to(std::string& out) const {
    char buf[max_text_length];
    out.append(buf, to_chars(buf));
  }
  auto to_string() const -> std::string {
    std::string s;
    append_to(s);
    return s;
  }

  friend constexpr auto operator<=>(const address_range&, const address_range&) noexcept = default;
  friend constexpr bool operator==(const address_range&, const address_range&) noexcept = default;

 private:
  constexpr address_range(address first, address last) noexcept : first_(first), last_(last) {}

  address first_;
  address last_;
};

}  // namespace cidrcheck

/// Hashes a range consistently with ==.
template <>
struct std::hash<cidrcheck::address_range> {
  auto operator()(const cidrcheck::address_range& r) const noexcept -> std::size_t {
    std::hash<cidrcheck::address> h;
    return h(r.first()) * 31 + h(r.last());
  }
};
