#pragma once
// cidrcheck::error: the one base of every exception the library throws, so
// that a program can catch all of them, and only them, in one place. Each
// error also keeps the standard exception it has always derived from
// (parse_error is a std::invalid_argument, limit_error a std::length_error,
// ...), so catch sites written for those keep working and pybind11 keeps
// raising the same Python exceptions. docs/cpp-errors.md shows the hierarchy.

#include <exception>
#include <stdexcept>

namespace cidrcheck {

/// The base of every exception cidrcheck throws: `catch (const cidrcheck::error& e)`
/// catches them all and e.what() is the message. A mixin rather than a
/// std::exception, so that each error has exactly one std::exception base and
/// `catch (const std::exception&)` is never ambiguous; every error is also a
/// basic_error<S> for the standard exception S it derives from.
class error {
 public:
  /// Returns the message, as std::exception::what() of the same object does.
  virtual auto what() const noexcept -> const char* = 0;

  error() = default;
  error(const error&) = default;
  auto operator=(const error&) -> error& = default;
  virtual ~error() = default;
};

/// An error that is both a cidrcheck::error and the standard exception Std
/// (std::invalid_argument, std::length_error, ...); constructed as Std is.
/// The library throws basic_error<Std> itself where a failure carries nothing
/// beyond its message (prefix::subnets() with a length out of range), and
/// named classes derived from it otherwise (parse_error, limit_error, ...).
template <class Std>
class basic_error : public Std, public error {
 public:
  using Std::Std;
  auto what() const noexcept -> const char* override { return Std::what(); }
};

}  // namespace cidrcheck
