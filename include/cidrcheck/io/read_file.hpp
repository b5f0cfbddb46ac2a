#pragma once
// Whole-file reading with a size limit; "-" is standard input.

#include <cstddef>
#include <string>

namespace cidrcheck {

struct file_contents {
  std::string text;
  std::string error;  ///< empty on success; else why the file could not be read
};

/// Reads the whole file at path ("-" for standard input). A file larger than
/// max_bytes is not read and its error names the limit `limit_name`. Never throws
/// for a missing, unreadable or oversized file: that is the error.
auto read_file(const std::string& path, std::size_t max_bytes, const char* limit_name) -> file_contents;

/// Returns the name diagnostics use for path: "<stdin>" for "-".
inline auto display_name(const std::string& path) -> std::string { return path == "-" ? "<stdin>" : path; }

}  // namespace cidrcheck
