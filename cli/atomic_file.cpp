#include "atomic_file.hpp"

#include "options.hpp"

#include <cidrcheck/io/import.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace cidrcheck::cli {

namespace {

// Writes to a path that is not a regular file (a device, a pipe) in place.
auto write_in_place(const std::string& path, const std::function<void(output&)>& render) -> std::string {
  std::FILE* stream = std::fopen(path.c_str(), "w");
  if (stream == nullptr) return std::string("cannot open: ") + std::strerror(errno);
  bool ok = false;
  {
    output out(stream);
    render(out);
    ok = out.flush();
  }
  int error = ok ? 0 : errno;
  if (std::fclose(stream) != 0 && ok) {
    ok = false;
    error = errno;
  }
  return ok ? std::string() : std::string("cannot write: ") + std::strerror(error != 0 ? error : EIO);
}

// Reports whether the stream's file reached the disk; file systems that cannot
// sync (EINVAL) count as synced.
auto synced(std::FILE* stream) -> bool { return ::fsync(::fileno(stream)) == 0 || errno == EINVAL; }

}  // namespace

auto write_file_atomically(const std::string& given, const std::function<void(output&)>& render) -> std::string {
  std::error_code ec;
  auto status = std::filesystem::status(given, ec);  // of what links lead to
  if (std::filesystem::is_directory(status)) return "is a directory";
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) return write_in_place(given, render);
  // Replace the file a link names, not the link.
  std::filesystem::path path = given;
  for (int hops = 0; hops < 40 && std::filesystem::is_symlink(path, ec); ++hops) {
    auto target = std::filesystem::read_symlink(path, ec);
    if (ec) return "cannot read the link: " + ec.message();
    path = target.is_absolute() ? target : path.parent_path() / target;
  }
  auto directory = path.parent_path();
  std::string temp = (directory / ".cidrcheck-XXXXXX").string();
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return std::string("cannot create a file in ") + (directory.empty() ? "." : directory.string()) + ": " +
                     std::strerror(errno);
  auto fail = [&](const char* what, int error) {
    ::unlink(temp.c_str());
    return std::string(what) + ": " + std::strerror(error);
  };
  // A replaced file keeps its mode; a new one gets what open(2) would give it.
  mode_t mode = 0;
  if (struct stat existing {}; ::stat(path.c_str(), &existing) == 0) {
    mode = existing.st_mode & 07777;
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd, mode) != 0) {
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
    // On disk before the rename, so that a crash leaves the old file or the whole new one.
    ok = out.flush() && synced(stream);
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

void refuse_input_as_output(const std::string& path, std::span<const std::string> sources, const std::string& help) {
  if (path.empty() || path == "-") return;
  for (const auto& s : sources) {
    auto source_path = std::string(parse_source_spec(s).path);
    std::error_code ec;  // a file that does not exist yet is no input
    if (source_path != "-" && std::filesystem::equivalent(source_path, path, ec)) {
      throw usage_error(path + " is an input file, and inputs are never modified: write elsewhere", help);
    }
  }
}

auto write_output(const std::string& path, const std::function<void(output&)>& render) -> bool {
  if (path.empty() || path == "-") {
    output out;
    render(out);
    return out.flush();
  }
  auto error = write_file_atomically(path, render);
  if (!error.empty()) std::cerr << path << ": error: " << error << "\n";
  return error.empty();
}

}  // namespace cidrcheck::cli
