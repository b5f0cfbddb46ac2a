#include "output.hpp"

namespace cidrcheck::cli {

auto output::flush() -> bool {
  if (!buffer_.empty()) {
    std::fwrite(buffer_.data(), 1, buffer_.size(), stream_);
    buffer_.clear();
  }
  return std::fflush(stream_) == 0 && std::ferror(stream_) == 0;
}

}  // namespace cidrcheck::cli
