#pragma once
// The error every reader ends with when it stops at its max-errors limit.

#include <cidrcheck/io/diagnostic.hpp>
#include <cidrcheck/io/diagnostic_code.hpp>

#include <cstddef>
#include <string>

namespace cidrcheck::detail {

/// Returns the "too-many-errors" error of a reader that stops at max_errors errors.
inline auto too_many_errors(std::size_t max_errors, source_location where = {}) -> diagnostic {
  return {severity::error, diag::too_many_errors,
          "too many errors: stopping at the max-errors limit of " + std::to_string(max_errors), std::move(where), {}};
}

}  // namespace cidrcheck::detail
