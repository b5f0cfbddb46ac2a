#pragma once
// Whole-file reading with a size limit; "-" is standard input.

#include <cidrcheck/detail/huge_pages.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cidrcheck {

struct file_contents {
  std::string text;
  std::string error;  ///< empty on success; else why the file could not be read
};

/// Reads the whole file at path ("-" for standard input). A file larger than
/// max_bytes is not read and its error names the limit `limit_name`. Never throws
/// for a missing, unreadable or oversized file: that is the error. A named pipe
/// (FIFO) that no program has open for writing is an error too, where opening
/// it would wait for ever; an open stream (descriptor_alias(), "-") is read as
/// it comes.
auto read_file(const std::string& path, std::size_t max_bytes, const char* limit_name) -> file_contents;

/// Reads the whole file at path into text, as read_file() reads it, replacing
/// what text held; returns the error, empty on success. A huge_vector's buffer
/// is 2 MB aligned, so a large file's text faults in whole huge pages (the set
/// tools' lists of millions of lines).
auto read_file_into(const std::string& path, std::size_t max_bytes, const char* limit_name,
                    detail::huge_vector<char>& text) -> std::string;

/// Returns the file descriptor a path names as a stream of this process,
/// rather than a file: 0, 1 and 2 for /dev/stdin, /dev/stdout and /dev/stderr,
/// N for /dev/fd/N and /proc/self/fd/N (the path made lexically normal first);
/// nullopt for any other path, "-" included (standard input to a reader,
/// standard output to a writer).
auto descriptor_alias(std::string_view path) -> std::optional<int>;

/// Returns the name diagnostics use for path: "<stdin>" for "-".
inline auto display_name(const std::string& path) -> std::string { return path == "-" ? "<stdin>" : path; }

}  // namespace cidrcheck
