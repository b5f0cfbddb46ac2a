#include <cidrcheck/io/write_file.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cidrcheck {

auto write_file_atomically(const std::string& path, std::string_view contents) -> std::string {
  auto slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string temp = dir + "/." + base + ".cidrcheck-XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return "cannot create a temporary file in " + dir + ": " + std::strerror(errno);
  auto fail = [&](const char* what) {
    std::string message = std::string(what) + ": " + std::strerror(errno);
    ::close(fd);
    ::unlink(temp.c_str());
    return message;
  };
  // Keep the mode of the file being replaced; a new file gets the usual 0666 & ~umask.
  struct stat st {};
  mode_t mode = 0;
  if (::stat(path.c_str(), &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd, mode) != 0) return fail("cannot set the file mode");
  for (std::size_t done = 0; done < contents.size();) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail("cannot write");
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) return fail("cannot flush");
  if (::close(fd) != 0) {
    ::unlink(temp.c_str());
    return std::string("cannot close: ") + std::strerror(errno);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    std::string message = std::string("cannot replace the file: ") + std::strerror(errno);
    ::unlink(temp.c_str());
    return message;
  }
  return {};
}

}  // namespace cidrcheck
