#include "atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace cidrcheck::cli {

auto write_file_atomically(const std::string& path, const std::function<void(output&)>& render) -> std::string {
  auto directory = std::filesystem::path(path).parent_path();
  std::string temp = (directory / ".cidrcheck-XXXXXX").string();
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return std::string("cannot create a file in ") + (directory.empty() ? "." : directory.string()) + ": " +
                     std::strerror(errno);
  auto fail = [&](const char* what, int error) {
    ::unlink(temp.c_str());
    return std::string(what) + ": " + std::strerror(error);
  };
  mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd, 0666 & ~mask) != 0) {
    int error = errno;
    ::close(fd);
    return fail("cannot set permissions", error);
  }
  std::FILE* stream = ::fdopen(fd, "w");
  if (stream == nullptr) {
    int error = errno;
    ::close(fd);
    return fail("cannot write", error);
  }
  bool ok = false;
  try {
    output out(stream);
    render(out);
    ok = out.flush();
  } catch (...) {
    std::fclose(stream);
    ::unlink(temp.c_str());
    throw;
  }
  int error = ok ? 0 : errno;
  if (std::fclose(stream) != 0 && ok) {
    ok = false;
    error = errno;
  }
  if (!ok) return fail("cannot write", error != 0 ? error : EIO);
  if (std::rename(temp.c_str(), path.c_str()) != 0) return fail("cannot replace the file", errno);
  return {};
}

}  // namespace cidrcheck::cli
