#pragma once
// Opt-in {fmt} support: fmt::format("{}", prefix). Width, fill and alignment
// work as for strings ("{:>18}"). Include this header only where fmt is a
// dependency already; the rest of cidrcheck does not need fmt.

#include <cidrcheck/address.hpp>
#include <cidrcheck/address_range.hpp>
#include <cidrcheck/prefix.hpp>

#include <fmt/format.h>

#include <string_view>

namespace cidrcheck::detail {

/// Formats any cidrcheck value type with a to_chars() member through fmt's string formatter.
template <class T>
struct to_chars_formatter : fmt::formatter<std::string_view> {
  template <class Context>
  auto format(const T& value, Context& ctx) const {
    char buf[T::max_text_length];
    return fmt::formatter<std::string_view>::format(std::string_view(buf, value.to_chars(buf)), ctx);
  }
};

}  // namespace cidrcheck::detail

template <>
struct fmt::formatter<cidrcheck::address> : cidrcheck::detail::to_chars_formatter<cidrcheck::address> {};
template <>
struct fmt::formatter<cidrcheck::prefix> : cidrcheck::detail::to_chars_formatter<cidrcheck::prefix> {};
template <>
struct fmt::formatter<cidrcheck::address_range> : cidrcheck::detail::to_chars_formatter<cidrcheck::address_range> {};
