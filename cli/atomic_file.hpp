#pragma once
// Output files are written atomically: readers see the old file or the whole
// new one, never a part (a CI upload step racing a slow write, a full disk).

#include "output.hpp"

#include <functional>
#include <string>

namespace cidrcheck::cli {

/// Writes the file at path in full or not at all: render() fills a temporary
/// file in the same directory, which then replaces path (rename(2)). The file
/// gets the permissions a new file gets (0666 less the umask). A symbolic link
/// is followed (the link stays); a path that exists and is no regular file
/// (/dev/stdout, a pipe) is written directly, never replaced. Returns "" on
/// success, else why the file could not be written; the temporary file is
/// removed then.
auto write_file_atomically(const std::string& path, const std::function<void(output&)>& render) -> std::string;

}  // namespace cidrcheck::cli
