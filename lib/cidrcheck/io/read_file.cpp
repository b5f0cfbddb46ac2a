#include <cidrcheck/io/read_file.hpp>

#include <cidrcheck/detail/huge_pages.hpp>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace cidrcheck {

namespace {

auto over_limit(std::size_t max_bytes, const char* limit_name) -> std::string {
  return std::string("file is larger than the ") + limit_name + " limit of " + std::to_string(max_bytes) + " bytes";
}

// A named pipe, opened with O_NONBLOCK: reads its first byte into text, or
// returns why not. With no writer, a read would wait for one for ever: that is
// an error. A writer counts from the moment it opens (or waits to open) the
// pipe, so a program started before cidrcheck is seen, and its data waited for.
template <class Text>
auto start_named_pipe(int fd, Text& text, std::size_t max_bytes, const char* limit_name) -> std::string {
  char first = 0;
  ssize_t n = ::read(fd, &first, 1);
  if (n == 0) return "is a named pipe (FIFO) that no program writes to: reading it would wait for ever";
  if (n < 0) return errno == EAGAIN ? std::string() : std::string("cannot read: ") + std::strerror(errno);
  if (max_bytes == 0) return over_limit(max_bytes, limit_name);
  text.push_back(first);
  return {};
}

// Reads the file into text (a std::string or a huge_vector<char>, replacing
// what it held); returns the error, empty on success (text then empty).
template <class Text>
auto read_into(const std::string& path, std::size_t max_bytes, const char* limit_name, Text& text) -> std::string {
  text.clear();
  std::string error;
  // The system reads a path up to its first NUL: "fleet.yaml\0x" would open fleet.yaml.
  if (path.find('\0') != std::string::npos) {
    return "cannot open: the path holds a NUL byte";
  }
  bool is_stdin = path == "-";
  // A named pipe opens at once with O_NONBLOCK, where it would wait for a
  // writer; a stream this process holds (a pipe of `<(...)`) has one already.
  bool stream = is_stdin || descriptor_alias(path).has_value();
  int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC | (stream ? 0 : O_NONBLOCK));
  if (fd < 0) {
    return std::string("cannot open: ") + std::strerror(errno);
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0) {
    if (S_ISFIFO(st.st_mode) && !stream) {
      error = start_named_pipe(fd, text, max_bytes, limit_name);
    } else if (S_ISDIR(st.st_mode)) {
      error = "is a directory";
    } else if (S_ISREG(st.st_mode) && static_cast<std::size_t>(st.st_size) > max_bytes) {
      error = over_limit(max_bytes, limit_name);
    } else if (S_ISREG(st.st_mode)) {
      text.reserve(static_cast<std::size_t>(st.st_size));
      detail::advise_huge_pages(text.data(), text.capacity());
    }
  }
  if (!stream) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // from here on, reads wait for data
  char buf[1 << 16];
  while (error.empty()) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      error = std::string("cannot read: ") + std::strerror(errno);
      break;
    }
    // Pipes and special files have no size up front: enforce the limit as they stream.
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
      error = over_limit(max_bytes, limit_name);
      break;
    }
    text.insert(text.end(), buf, buf + n);
  }
  if (!is_stdin) ::close(fd);
  if (!error.empty()) text.clear();
  return error;
}

}  // namespace

auto read_file(const std::string& path, std::size_t max_bytes, const char* limit_name) -> file_contents {
  file_contents out;
  out.error = read_into(path, max_bytes, limit_name, out.text);
  return out;
}

auto read_file_into(const std::string& path, std::size_t max_bytes, const char* limit_name,
                    detail::huge_vector<char>& text) -> std::string {
  return read_into(path, max_bytes, limit_name, text);
}

auto descriptor_alias(std::string_view path) -> std::optional<int> {
  auto normal = std::filesystem::path(path).lexically_normal().string();
  if (normal == "/dev/stdin") return 0;
  if (normal == "/dev/stdout") return 1;
  if (normal == "/dev/stderr") return 2;
  for (std::string_view folder : {"/dev/fd/", "/proc/self/fd/"}) {
    if (!normal.starts_with(folder)) continue;
    auto digits = std::string_view(normal).substr(folder.size());
    int fd = -1;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), fd);
    if (error == std::errc() && end == digits.data() + digits.size() && !digits.empty() && fd >= 0) return fd;
  }
  return std::nullopt;
}

}  // namespace cidrcheck
