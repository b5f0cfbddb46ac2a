#pragma once
// Writing an output file all at once: readers see the old file or the new one,
// never half of it.

#include <string>
#include <string_view>

namespace cidrcheck::cli {

/// Writes text to path through a temporary file in the same directory, then
/// renames it over path. The file keeps the mode of the file it replaces (a new
/// one gets 0666 less the umask). Returns why it failed, or "" on success; on
/// failure path is untouched and the temporary file removed.
auto write_file_atomically(const std::string& path, std::string_view text) -> std::string;

}  // namespace cidrcheck::cli
