#pragma once
// Parse failures: the non-throwing result<T> of try_parse() and the
// parse_error that parse() throws.

#include <cidrcheck/error.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace cidrcheck {

/// Why a text failed to parse. The values are stable; messages come from describe().
enum class parse_errc : std::uint8_t {
  empty,                  ///< the text is empty
  bad_character,          ///< a character that cannot appear here
  octet_out_of_range,     ///< an IPv4 octet above 255
  leading_zero,           ///< an IPv4 octet or prefix length with a leading zero (ambiguous: octal?)
  too_few_octets,         ///< an IPv4 address with fewer than four octets
  too_many_octets,        ///< an IPv4 address with more than four octets
  empty_group,            ///< an IPv6 group or IPv4 octet with no digits (":" or ".." in the wrong place)
  group_too_long,         ///< an IPv6 group with more than four hex digits
  too_few_groups,         ///< an IPv6 address with fewer than eight groups and no "::"
  too_many_groups,        ///< an IPv6 address with more than eight groups
  multiple_double_colon,  ///< more than one "::"
  bad_embedded_ipv4,      ///< a dotted quad inside IPv6 text that is malformed or not at the end
  zone_not_allowed,       ///< an IPv6 zone ("%eth0"), which has no meaning in a CIDR
  missing_length,         ///< a prefix without "/length"
  bad_length,             ///< a prefix length that is not a decimal number
  length_out_of_range,    ///< a prefix length above 32 (IPv4) or 128 (IPv6)
  host_bits_set,          ///< a prefix whose address has bits set after the prefix length
  missing_dash,           ///< a range without "-" between its two addresses
  family_mismatch,        ///< a range whose ends are of different IP versions
  range_reversed,         ///< a range whose first address is above its last
};

/// Returns a short lowercase description of code, for messages.
constexpr auto describe(parse_errc code) noexcept -> std::string_view {
  switch (code) {
    case parse_errc::empty: return "empty";
    case parse_errc::bad_character: return "unexpected character";
    case parse_errc::octet_out_of_range: return "octet out of range";
    case parse_errc::leading_zero: return "leading zero (ambiguous: octal or decimal?)";
    case parse_errc::too_few_octets: return "too few octets";
    case parse_errc::too_many_octets: return "too many octets";
    case parse_errc::empty_group: return "empty field";
    case parse_errc::group_too_long: return "group has more than four hex digits";
    case parse_errc::too_few_groups: return "too few groups";
    case parse_errc::too_many_groups: return "too many groups";
    case parse_errc::multiple_double_colon: return "more than one \"::\"";
    case parse_errc::bad_embedded_ipv4: return "bad embedded IPv4 address";
    case parse_errc::zone_not_allowed: return "zone identifier not allowed";
    case parse_errc::missing_length: return "missing prefix length";
    case parse_errc::bad_length: return "prefix length is not a number";
    case parse_errc::length_out_of_range: return "prefix length out of range";
    case parse_errc::host_bits_set: return "host bits set";
    case parse_errc::missing_dash: return "missing \"-\" between first and last address";
    case parse_errc::family_mismatch: return "first and last address are of different IP versions";
    case parse_errc::range_reversed: return "first address is above last address";
  }
  return "invalid";
}

/// Where and why a text failed to parse. offset is 0-based, in bytes, into the input.
struct parse_failure {
  parse_errc code = parse_errc::empty;
  std::uint32_t offset = 0;
  friend constexpr bool operator==(const parse_failure&, const parse_failure&) noexcept = default;
};

/// Thrown by result<T>::value() on a failed result, like std::bad_optional_access.
/// A cidrcheck::error and a std::logic_error.
class bad_result_access : public basic_error<std::logic_error> {
 public:
  bad_result_access() : basic_error("cidrcheck: value() called on a failed parse result") {}
};

/// Either a parsed T or the parse_failure that prevented it. Usable in constant
/// expressions; T must be default-constructible (every cidrcheck value type is).
template <class T>
class result {
 public:
  constexpr result(T value) noexcept : value_(value), ok_(true) {}  // NOLINT: implicit by design
  constexpr result(parse_failure failure) noexcept : failure_(failure) {}  // NOLINT

  constexpr auto has_value() const noexcept -> bool { return ok_; }
  constexpr explicit operator bool() const noexcept { return ok_; }
  /// Returns the value; throws bad_result_access on a failed result.
  constexpr auto value() const -> const T& {
    if (!ok_) throw bad_result_access();
    return value_;
  }
  /// Returns the value. Precondition: has_value().
  constexpr auto operator*() const noexcept -> const T& { return value_; }
  constexpr auto operator->() const noexcept -> const T* { return &value_; }
  /// Returns the failure. Precondition: !has_value().
  constexpr auto error() const noexcept -> parse_failure { return failure_; }

 private:
  T value_{};
  parse_failure failure_{};
  bool ok_ = false;
};

/// What a parse call was reading, for messages.
enum class parse_kind : std::uint8_t { address, prefix, range };

/// Returns the one-line message for a failed parse of input, as parse_error::what()
/// says it. Long inputs are shortened and control or non-ASCII bytes are escaped
/// (\xNN), so the message is safe to print whatever the input held. A non-empty
/// hint is appended in parentheses ("did you mean 10.0.0.0/24?").
auto parse_error_message(parse_kind kind, std::string_view input, parse_failure failure,
                         std::string_view hint = {}) -> std::string;

/// Thrown by the parse() functions. A cidrcheck::error and a std::invalid_argument,
/// so the Python bindings raise ValueError. what() names the input and the position:
/// `invalid prefix "10.0.0.256/24": octet out of range (at "256/24")`.
class parse_error : public basic_error<std::invalid_argument> {
 public:
  parse_error(parse_kind kind, std::string_view input, parse_failure failure, std::string_view hint = {})
      : basic_error(parse_error_message(kind, input, failure, hint)),
        kind_(kind),
        input_(input),
        failure_(failure) {}

  auto code() const noexcept -> parse_errc { return failure_.code; }
  /// Returns the 0-based byte offset into input() where parsing failed.
  auto offset() const noexcept -> std::uint32_t { return failure_.offset; }
  auto kind() const noexcept -> parse_kind { return kind_; }
  auto input() const noexcept -> const std::string& { return input_; }

 private:
  parse_kind kind_;
  std::string input_;
  parse_failure failure_;
};

namespace detail {

/// Appends text to out with quotes and backslashes escaped and bytes outside
/// printable ASCII written as \xNN, keeping at most max_bytes of text.
inline void append_escaped(std::string& out, std::string_view text, std::size_t max_bytes) {
  constexpr char hex[] = "0123456789abcdef";
  bool shortened = text.size() > max_bytes;
  if (shortened) text = text.substr(0, max_bytes);
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (shortened) out += "...";
}

}  // namespace detail

inline auto parse_error_message(parse_kind kind, std::string_view input, parse_failure failure,
                                std::string_view hint) -> std::string {
  constexpr std::string_view kinds[] = {"address", "prefix", "range"};
  std::string out = "invalid ";
  out += kinds[static_cast<int>(kind)];
  out += " \"";
  detail::append_escaped(out, input, 64);
  out += "\": ";
  out += describe(failure.code);
  // The position says nothing more for failures of the whole text.
  bool whole_text = failure.code == parse_errc::empty || failure.code == parse_errc::host_bits_set ||
                    failure.code == parse_errc::missing_length || failure.code == parse_errc::missing_dash ||
                    failure.code == parse_errc::family_mismatch || failure.code == parse_errc::range_reversed;
  if (!whole_text) {
    if (failure.offset >= input.size()) {
      out += " (at end)";
    } else {
      out += " (at \"";
      detail::append_escaped(out, input.substr(failure.offset), 16);
      out += "\")";
    }
  }
  if (!hint.empty()) {
    out += " (";
    out += hint;
    out += ')';
  }
  return out;
}

}  // namespace cidrcheck
