#include <cidrcheck/io/read_file.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cidrcheck {

namespace {

auto over_limit(std::size_t max_bytes, const char* limit_name) -> std::string {
  return std::string("file is larger than the ") + limit_name + " limit of " + std::to_string(max_bytes) + " bytes";
}

}  // namespace

auto read_file(const std::string& path, std::size_t max_bytes, const char* limit_name) -> file_contents {
  file_contents out;
  // The system reads a path up to its first NUL: "fleet.yaml\0x" would open fleet.yaml.
  if (path.find('\0') != std::string::npos) {
    out.error = "cannot open: the path holds a NUL byte";
    return out;
  }
  bool is_stdin = path == "-";
  int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    out.error = std::string("cannot open: ") + std::strerror(errno);
    return out;
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      out.error = "is a directory";
    } else if (S_ISREG(st.st_mode) && static_cast<std::size_t>(st.st_size) > max_bytes) {
      out.error = over_limit(max_bytes, limit_name);
    } else if (S_ISREG(st.st_mode)) {
      out.text.reserve(static_cast<std::size_t>(st.st_size));
    }
  }
  char buf[1 << 16];
  while (out.error.empty()) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      out.error = std::string("cannot read: ") + std::strerror(errno);
      break;
    }
    // Pipes and special files have no size up front: enforce the limit as they stream.
    if (out.text.size() + static_cast<std::size_t>(n) > max_bytes) {
      out.error = over_limit(max_bytes, limit_name);
      break;
    }
    out.text.append(buf, static_cast<std::size_t>(n));
  }
  if (!is_stdin) ::close(fd);
  if (!out.error.empty()) out.text.clear();
  return out;
}

}  // namespace cidrcheck
