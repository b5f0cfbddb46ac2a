#include "output.hpp"

#include <cerrno>
#include <cstring>

namespace cidrcheck::cli {

auto output::flush() -> bool {
  int error = 0;  // the errno of the write that failed, kept before anything else can change it
  if (!buffer_.empty()) {
    // After a failure the rest is dropped: a full disk or a closed stream takes no more.
    if (!failed_) {
      errno = 0;
      if (std::fwrite(buffer_.data(), 1, buffer_.size(), stream_) != buffer_.size()) error = errno != 0 ? errno : EIO;
    }
    buffer_.clear();
  }
  if (failed_) return false;
  if (error == 0) {
    errno = 0;
    if (std::fflush(stream_) == 0 && std::ferror(stream_) == 0) return true;
    error = errno != 0 ? errno : EIO;
  }
  failed_ = true;
  // Files say why through their writer (write_file_atomically); standard output has none.
  if (stream_ == stdout) report_standard_output_error(error);
  return false;
}

void report_standard_output_error(int error) {
  static bool reported = false;
  if (reported) return;
  reported = true;
  std::fprintf(stderr, "cidrcheck: error: cannot write to standard output: %s\n", std::strerror(error));
}

auto finish_standard_output() -> bool {
  errno = 0;
  if (std::fflush(stdout) == 0 && std::ferror(stdout) == 0) return true;
  report_standard_output_error(errno != 0 ? errno : EIO);
  return false;
}

}  // namespace cidrcheck::cli
