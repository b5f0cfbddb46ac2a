#include "output.hpp"

#include <cerrno>
#include <cstring>

namespace cidrcheck::cli {

auto output::flush() -> bool {
  if (!buffer_.empty()) {
    // After a failure the rest is dropped: a full disk or a closed stream takes no more.
    if (!failed_) std::fwrite(buffer_.data(), 1, buffer_.size(), stream_);
    buffer_.clear();
  }
  if (failed_) return false;
  errno = 0;
  if (std::fflush(stream_) == 0 && std::ferror(stream_) == 0) return true;
  int error = errno != 0 ? errno : EIO;
  failed_ = true;
  // Files say why through their writer (write_file_atomically); standard output has none.
  if (stream_ == stdout) std::fprintf(stderr, "cidrcheck: error: cannot write to standard output: %s\n", std::strerror(error));
  return false;
}

}  // namespace cidrcheck::cli
