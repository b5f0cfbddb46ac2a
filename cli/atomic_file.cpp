#include "atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cidrcheck::cli {

auto write_file_atomically(const std::string& path, std::string_view text) -> std::string {
  std::filesystem::path target(path);
  auto dir = target.parent_path();
  std::string temp = (dir.empty() ? std::filesystem::path(".") : dir) / ("." + target.filename().string() + ".XXXXXX");
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return "cannot create a temporary file next to " + path + ": " + std::strerror(errno);
  auto fail = [&](const char* what) {
    std::string why = std::string(what) + ": " + std::strerror(errno);
    if (fd >= 0) ::close(fd);
    ::unlink(temp.c_str());
    return why;
  };
  // Keep the mode of the file replaced; a new file gets 0666 less the umask.
  struct stat st {};
  mode_t mode = 0;
  if (::stat(path.c_str(), &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd, mode) != 0) return fail("cannot set the mode of the temporary file");
  for (std::size_t done = 0; done < text.size();) {
    auto n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail("cannot write");
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) return fail("cannot write");
  if (::close(fd) != 0) {
    fd = -1;
    return fail("cannot write");
  }
  fd = -1;
  if (::rename(temp.c_str(), path.c_str()) != 0) return fail("cannot replace the file");
  return {};
}

}  // namespace cidrcheck::cli
