#pragma once
// limit_error: what a computation throws when its input goes beyond one of
// cidrcheck's named limits (docs/limits.md), so that a hostile input ends in a
// clear message rather than in exhausted memory. Readers do not throw it: they
// report a limit they hit as a diagnostic with the code "limit".

#include <cidrcheck/error.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace cidrcheck {

/// Thrown when an input goes beyond a limit. limit() is the limit's name
/// ("max-findings"), which is also the CLI flag that raises it; what() says
/// what was exceeded. A cidrcheck::error and a std::length_error, so a caller
/// that catches the standard exceptions sees it as one.
class limit_error : public basic_error<std::length_error> {
 public:
  limit_error(std::string limit, std::size_t value, const std::string& message)
      : basic_error(message), limit_(std::move(limit)), value_(value) {}

  /// Returns the limit's name, "max-findings".
  auto limit() const noexcept -> const std::string& { return limit_; }
  /// Returns the limit's value that was exceeded.
  auto value() const noexcept -> std::size_t { return value_; }

 private:
  std::string limit_;
  std::size_t value_;
};

}  // namespace cidrcheck
