#pragma once

#include <string>
#include <string_view>

namespace cidrcheck::cli {

/// Writes text to the file at path atomically: to a temporary file in the same
/// directory, then renamed over path, so a reader sees the old file or the new
/// one, never a part, and a failed run leaves no partial output. A new file gets
/// the usual permissions (0666 less the umask); a replaced one keeps its mode.
/// "-" writes to standard output. Returns an empty string, or why it failed.
auto write_file_atomically(const std::string& path, std::string_view text) -> std::string;

}  // namespace cidrcheck::cli
