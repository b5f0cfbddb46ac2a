#include "write_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cidrcheck::cli {

namespace {

auto write_all(int fd, std::string_view text) -> bool {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

auto failure(const char* what) -> std::string { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

auto write_file_atomically(const std::string& path, std::string_view text) -> std::string {
  if (path == "-") {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
      return failure("cannot write to standard output");
    }
    return {};
  }
  auto slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string temp = dir + "." + name + ".XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return failure("cannot create a temporary file next to it");
  struct stat st {};
  mode_t mode = 0;
  if (::stat(path.c_str(), &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  std::string error;
  if (!write_all(fd, text)) error = failure("cannot write");
  else if (::fchmod(fd, mode) != 0) error = failure("cannot set permissions");
  else if (::fsync(fd) != 0) error = failure("cannot write");
  if (::close(fd) != 0 && error.empty()) error = failure("cannot write");
  if (error.empty() && ::rename(temp.c_str(), path.c_str()) != 0) error = failure("cannot replace it");
  if (!error.empty()) ::unlink(temp.c_str());
  return error;
}

}  // namespace cidrcheck::cli
