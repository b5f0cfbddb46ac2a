#pragma once

#include <cidrcheck/address.hpp>
#include <cidrcheck/error.hpp>
#include <cidrcheck/detail/family.hpp>

#include <compare>
#include <cstdint>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cidrcheck {

/// How prefix parsing treats an address with bits set after the prefix length.
enum class host_bits : std::uint8_t {
  reject,  ///< "10.0.0.1/24" is an error whose message names 10.0.0.0/24 (the default)
  mask,    ///< "10.0.0.1/24" means 10.0.0.0/24 (Python's strict=False)
};

class subnet_range;

/// A CIDR block: an address and a prefix length, always canonical (no host bits).
///
/// Regular and trivially copyable. A default-constructed prefix is invalid.
/// Prefixes order by version, then network address, then length (a shorter
/// prefix sorts before a longer one at the same address). Relations between
/// prefixes of different versions are false: families never mix.
class prefix {
 public:
  constexpr prefix() noexcept = default;

  /// Returns the prefix of the given length that contains a (its host bits cleared),
  /// or an invalid prefix when a is invalid or length is outside [0, a.width()].
  static constexpr auto containing(address a, int length) noexcept -> prefix {
    if (!a.is_valid() || length < 0 || length > a.width()) return {};
    if (a.is_v4()) {
      auto bits = a.v4_bits() & detail::network_mask<std::uint32_t>(length);
      return prefix(address::v4(bits), length);
    }
    return prefix(address::v6(a.bits() & detail::network_mask<uint128>(length)), length);
  }

  /// Parses "address/length". Host bits are an error unless mode is host_bits::mask;
  /// the message then names the canonical prefix. Throws parse_error.
  static auto parse(std::string_view text, host_bits mode = host_bits::reject) -> prefix {
    auto r = try_parse(text, mode);
    if (!r) throw parse_error(parse_kind::prefix, text, r.error(), suggestion(text, r.error()));
    return *r;
  }
  /// Parses like parse() but reports a failure in the result instead of throwing.
  static constexpr auto try_parse(std::string_view text, host_bits mode = host_bits::reject) noexcept
      -> result<prefix> {
    auto slash = text.find('/');
    auto addr = address::try_parse(text.substr(0, slash));
    if (!addr) return addr.error();
    if (slash == std::string_view::npos) return parse_failure{parse_errc::missing_length, static_cast<std::uint32_t>(text.size())};
    int length = 0;
    parse_failure failure;
    if (!detail::parse_length(text.substr(slash + 1), slash + 1, addr->width(), length, failure)) return failure;
    auto p = containing(*addr, length);
    if (mode == host_bits::reject && p.network() != *addr) return parse_failure{parse_errc::host_bits_set, 0};
    return p;
  }

  constexpr auto network() const noexcept -> address { return network_; }
  constexpr auto length() const noexcept -> int { return length_; }
  constexpr auto version() const noexcept -> ip_version { return network_.version(); }
  constexpr auto is_valid() const noexcept -> bool { return network_.is_valid(); }
  /// Returns the number of bits of an address of this prefix's version (32 or 128).
  constexpr auto width() const noexcept -> int { return network_.width(); }

  /// Returns the last address of the block (the "broadcast" address for IPv4).
  constexpr auto last() const noexcept -> address {
    if (network_.is_v4()) return address::v4(network_.v4_bits() | detail::host_mask<std::uint32_t>(length_));
    if (network_.is_v6()) return address::v6(network_.bits() | detail::host_mask<uint128>(length_));
    return {};
  }
  /// Returns the number of addresses in the block. ::/0 holds 2^128 addresses,
  /// one more than uint128 can hold, so the count saturates at 2^128 - 1 there.
  constexpr auto size() const noexcept -> uint128 {
    if (!is_valid()) return 0;
    int host = width() - length_;
    return host >= 128 ? detail::uint128_max : uint128{1} << host;
  }

  /// Reports whether a lies in this block (false for another version).
  constexpr auto contains(address a) const noexcept -> bool {
    return a.version() == version() && is_valid() && network_ <= a && a <= last();
  }
  /// Reports whether the two blocks share any address.
  constexpr auto overlaps(const prefix& other) const noexcept -> bool {
    return is_valid() && other.is_valid() && (contains(other.network_) || other.contains(network_));
  }
  /// Reports whether this block lies within other (true when they are equal).
  constexpr auto subnet_of(const prefix& other) const noexcept -> bool {
    return other.length_ <= length_ && other.contains(network_);
  }
  /// Reports whether other lies within this block (true when they are equal).
  constexpr auto supernet_of(const prefix& other) const noexcept -> bool { return other.subnet_of(*this); }

  /// Returns the blocks of length new_length that make up this one, in order (a
  /// lazy range, like Python's subnets()). Throws basic_error<std::invalid_argument>
  /// (a cidrcheck::error) unless length() <= new_length <= width().
  auto subnets(int new_length) const -> subnet_range;
  /// Returns the two halves of this block. Throws basic_error<std::invalid_argument> for a /width block.
  auto subnets() const -> subnet_range;
  /// Returns the block of length new_length that contains this one. Throws
  /// basic_error<std::invalid_argument> unless 0 <= new_length <= length().
  auto supernet(int new_length) const -> prefix {
    if (!is_valid() || new_length < 0 || new_length > length_) {
      throw basic_error<std::invalid_argument>("supernet length /" + std::to_string(new_length) + " is not in [0, " +
                                  std::to_string(length_) + "] for " + to_string());
    }
    return containing(network_, new_length);
  }
  /// Returns the block one bit shorter. Throws basic_error<std::invalid_argument> for a /0 block.
  auto supernet() const -> prefix { return supernet(length_ - 1); }

  /// The longest text to_chars() writes.
  static constexpr std::size_t max_text_length = address::max_text_length + 4;
  /// Writes "network/length" to out (max_text_length chars) and returns the end.
  constexpr auto to_chars(char* out) const noexcept -> char* {
    out = network_.to_chars(out);
    if (!is_valid()) return out;
    *out++ = '/';
    return detail::write_decimal(out, static_cast<unsigned>(length_));
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

  friend constexpr auto operator<=>(const prefix&, const prefix&) noexcept = default;
  friend constexpr bool operator==(const prefix&, const prefix&) noexcept = default;

 private:
  constexpr prefix(address network, int length) noexcept
      : network_(network), length_(static_cast<std::uint8_t>(length)) {}

  // The hint parse() adds to a message: the canonical block, or the /width block
  // that a bare address would be.
  static auto suggestion(std::string_view text, parse_failure failure) -> std::string {
    if (failure.code == parse_errc::host_bits_set) {
      return "did you mean " + parse(text, host_bits::mask).to_string() + "?";
    }
    if (failure.code == parse_errc::missing_length) {
      auto a = address::parse(text);
      return "did you mean " + a.to_string() + "/" + std::to_string(a.width()) + "?";
    }
    return {};
  }

  address network_;
  std::uint8_t length_ = 0;
};

/// The blocks of one length that make up a prefix, in address order. A lazy,
/// allocation-free view: ::/0 split into /128s has 2^128 elements.
class subnet_range {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = prefix;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = prefix;

    iterator() = default;
    auto operator*() const noexcept -> prefix {
      return prefix::containing(address::from_bits(parent_.version(), parent_.network().bits() + (index_ << shift_)),
                                new_length_);
    }
    auto operator++() noexcept -> iterator& {
      if (index_ == last_index_) {
        done_ = true;
      } else {
        ++index_;
      }
      return *this;
    }
    auto operator++(int) noexcept -> iterator {
      auto old = *this;
      ++*this;
      return old;
    }
    friend bool operator==(const iterator& a, const iterator& b) noexcept {
      return a.done_ == b.done_ && a.index_ == b.index_;
    }

   private:
    friend class subnet_range;
    iterator(prefix parent, int new_length, uint128 last_index, bool done)
        : parent_(parent), new_length_(new_length), shift_(parent.width() - new_length),
          index_(done ? last_index : 0), last_index_(last_index), done_(done) {}
    prefix parent_;
    int new_length_ = 0;
    int shift_ = 0;
    uint128 index_ = 0;
    uint128 last_index_ = 0;
    bool done_ = true;
  };

  subnet_range(prefix parent, int new_length)
      : parent_(parent), new_length_(new_length), last_index_(detail::host_mask<uint128>(128 - (new_length - parent.length()))) {}

  auto begin() const -> iterator { return {parent_, new_length_, last_index_, false}; }
  auto end() const -> iterator { return {parent_, new_length_, last_index_, true}; }
  /// Returns the number of blocks, saturating at 2^128 - 1 (only ::/0 into /128s saturates).
  auto size() const noexcept -> uint128 {
    return last_index_ == detail::uint128_max ? last_index_ : last_index_ + 1;
  }
  /// Returns the i-th block. Precondition: i < size().
  auto operator[](uint128 i) const -> prefix {
    return prefix::containing(
        address::from_bits(parent_.version(), parent_.network().bits() + (i << (parent_.width() - new_length_))),
        new_length_);
  }

 private:
  prefix parent_;
  int new_length_;
  uint128 last_index_;  // size() - 1, which always fits
};

inline auto prefix::subnets(int new_length) const -> subnet_range {
  if (!is_valid() || new_length < length_ || new_length > width()) {
    throw basic_error<std::invalid_argument>("subnet length /" + std::to_string(new_length) + " is not in [" +
                                std::to_string(length_) + ", " + std::to_string(width()) + "] for " + to_string());
  }
  return {*this, new_length};
}

inline auto prefix::subnets() const -> subnet_range { return subnets(length_ + 1); }

}  // namespace cidrcheck

/// Hashes a prefix consistently with ==.
template <>
struct std::hash<cidrcheck::prefix> {
  auto operator()(const cidrcheck::prefix& p) const noexcept -> std::size_t {
    return std::hash<cidrcheck::address>{}(p.network()) * 131 + static_cast<std::size_t>(p.length());
  }
};
