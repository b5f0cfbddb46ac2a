#pragma once

#include <string>
#include <string_view>

namespace cidrcheck {

/// Writes contents to path atomically: to a temporary file in the same
/// directory, flushed to disk, then renamed over path. Readers see the old file
/// or the new one, never a part; on any failure the old file is left as it was
/// and the temporary file is removed. Returns "" on success, else why it failed.
auto write_file_atomically(const std::string& path, std::string_view contents) -> std::string;

}  // namespace cidrcheck
