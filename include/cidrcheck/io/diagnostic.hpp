#pragma once

#include <cidrcheck/io/source_location.hpp>
#include <cidrcheck/severity.hpp>

#include <string>
#include <vector>

namespace cidrcheck {

/// A problem with an input: why it cannot be read or analysed as written.
/// Loaders collect every diagnostic they can rather than stop at the first.
struct diagnostic {
  severity level = severity::error;
  std::string code;     ///< stable id, e.g. "invalid-prefix", "unknown-key"
  std::string message;  ///< one line, lowercase, no trailing period
  source_location where;
  std::vector<diagnostic> notes;  ///< related places ("first declared here")
};

/// Reports whether any diagnostic is an error.
inline auto has_errors(const std::vector<diagnostic>& diagnostics) -> bool {
  for (const auto& d : diagnostics) {
    if (d.level == severity::error) return true;
  }
  return false;
}

/// Returns the diagnostic as GNU-style lines: "file:line:col: error: message",
/// then one line per note. With no file, the line starts with "cidrcheck:".
/// File names and messages (which quote names from the input) are printed
/// with control characters escaped (detail::append_printable): each line is
/// one line, and no name can start a CI workflow command or a terminal escape.
auto format_diagnostic(const diagnostic& d) -> std::string;

}  // namespace cidrcheck
