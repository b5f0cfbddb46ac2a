#include "atomic_file.hpp"

#include "options.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/io/import.hpp>

#include <algorithm>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <filesystem>
#include <iterator>
#include <iostream>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

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

// The files this run reads, and those it has written, as given.
auto inputs() -> std::vector<std::string>& {
  static std::vector<std::string> paths;
  return paths;
}
auto written() -> std::vector<std::string>& {
  static std::vector<std::string> paths;
  return paths;
}

// The input among those noted that path names, if any.
auto noted_input(const std::string& path) -> const std::string* {
  for (const auto& input : inputs()) {
    if (same_file(input, path)) return &input;
  }
  return nullptr;
}

// The temporary paths being written, for the signal handler: SIGINT, SIGTERM
// and SIGHUP remove them in their order (unlink, or rmdir for a folder the
// entries before it emptied; both async-signal-safe, and a path not made yet is
// skipped by its ENOENT), then end the process as the signal would have.
const char* const* temps_for_signals = nullptr;
std::size_t temps_count = 0;
volatile std::sig_atomic_t temps_pending = 0;
constexpr int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_temps_and_reraise(int number) {
  if (temps_pending != 0) {
    for (std::size_t k = 0; k < temps_count; ++k) {
      if (::unlink(temps_for_signals[k]) != 0) ::rmdir(temps_for_signals[k]);
    }
  }
  temps_pending = 0;
  std::signal(number, SIG_DFL);
  std::raise(number);
}

// Removes the temporary paths, in the order given, if the run is interrupted
// while the guard lives. Paths are copied before the handlers are installed,
// so the handler reads memory nothing changes under it.
class temp_guard {
 public:
  explicit temp_guard(std::vector<std::string> paths) : paths_(std::move(paths)) {
    for (const auto& path : paths_) pointers_.push_back(path.c_str());
    temps_for_signals = pointers_.data();
    temps_count = pointers_.size();
    temps_pending = 1;
    for (std::size_t k = 0; k < std::size(cleanup_signals); ++k) {
      struct sigaction action {};
      action.sa_handler = remove_temps_and_reraise;
      sigemptyset(&action.sa_mask);
      ::sigaction(cleanup_signals[k], &action, &previous_[k]);
      // A signal the shell ignores (nohup, a background job) stays ignored.
      if (previous_[k].sa_handler == SIG_IGN) ::sigaction(cleanup_signals[k], &previous_[k], nullptr);
    }
  }
  temp_guard(const temp_guard&) = delete;
  auto operator=(const temp_guard&) -> temp_guard& = delete;
  ~temp_guard() {
    temps_pending = 0;
    for (std::size_t k = 0; k < std::size(cleanup_signals); ++k) ::sigaction(cleanup_signals[k], &previous_[k], nullptr);
  }

 private:
  std::vector<std::string> paths_;
  std::vector<const char*> pointers_;
  struct sigaction previous_[std::size(cleanup_signals)] {};
};

// Holds the cleanup signals back while it lives (pthread_sigmask); one that
// arrives meanwhile is delivered when it ends.
class signals_held {
 public:
  signals_held() {
    sigset_t cleanup_set;
    sigemptyset(&cleanup_set);
    for (int number : cleanup_signals) sigaddset(&cleanup_set, number);
    ::pthread_sigmask(SIG_BLOCK, &cleanup_set, &previous_);
  }
  signals_held(const signals_held&) = delete;
  auto operator=(const signals_held&) -> signals_held& = delete;
  ~signals_held() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

 private:
  sigset_t previous_{};
};

// Makes a rename in directory durable: fsync(2) of the directory itself.
// File systems that cannot sync a directory (EINVAL) count as synced.
auto sync_directory(const std::filesystem::path& directory) -> bool {
  int fd = ::open(directory.empty() ? "." : directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::fsync(fd) == 0 || errno == EINVAL;
  ::close(fd);
  return ok;
}

// Reports whether the stream's file reached the disk; file systems that cannot
// sync (EINVAL) count as synced.
auto synced(std::FILE* stream) -> bool { return ::fsync(::fileno(stream)) == 0 || errno == EINVAL; }

}  // namespace

auto same_file(const std::string& a, const std::string& b) -> bool {
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec)) return true;
  auto ca = std::filesystem::weakly_canonical(std::filesystem::absolute(a, ec), ec);
  if (ec) return false;
  auto cb = std::filesystem::weakly_canonical(std::filesystem::absolute(b, ec), ec);
  return !ec && ca == cb;
}

auto write_file_atomically(const std::string& given, const std::function<void(output&)>& render) -> std::string {
  if (const auto* input = noted_input(given)) {
    return "is an input of this run (" + *input + "), and inputs are never modified: write elsewhere";
  }
  for (const auto& earlier : written()) {
    if (same_file(earlier, given)) return "this run wrote it already (as " + earlier + "): give each output its own file";
  }
  written().push_back(given);
  std::error_code ec;
  auto status = std::filesystem::status(given, ec);  // of what links lead to
  if (ec == std::errc::too_many_symbolic_link_levels) return "cannot follow the link: " + ec.message();
  if (std::filesystem::is_directory(status)) return "is a directory";
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) return write_in_place(given, render);
  // Replace the file a link names, not the link.
  std::filesystem::path path = given;
  for (int hops = 0; hops < 40 && std::filesystem::is_symlink(path, ec); ++hops) {
    auto target = std::filesystem::read_symlink(path, ec);
    if (ec) return "cannot read the link: " + ec.message();
    path = target.is_absolute() ? target : path.parent_path() / target;
  }
  // A loop (or a chain longer than the kernel follows) is an error, never replaced by a file.
  if (std::filesystem::is_symlink(path, ec)) return std::string("cannot follow the link: ") + std::strerror(ELOOP);
  auto directory = path.parent_path();
  std::string temp = (directory / ".cidrcheck-XXXXXX").string();
  // The cleanup signals wait while the file is created and its guard set up: a
  // signal between the two would otherwise end the run with the file left behind.
  std::optional<signals_held> held(std::in_place);
  int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    int error = errno;
    held.reset();
    return std::string("cannot create a file in ") + (directory.empty() ? "." : directory.string()) + ": " +
           std::strerror(error);
  }
  temp_guard guard({temp});
  held.reset();
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
  // The rename itself reaches the disk with the directory.
  if (!sync_directory(directory)) return std::string("cannot sync the directory: ") + std::strerror(errno);
  return {};
}

namespace {

// Writes text to a new file at path, on disk before it returns.
auto write_new_file(const std::filesystem::path& path, const std::string& text) -> std::string {
  std::FILE* stream = std::fopen(path.c_str(), "wx");
  if (stream == nullptr) return "cannot create " + path.string() + ": " + std::strerror(errno);
  bool ok = std::fwrite(text.data(), 1, text.size(), stream) == text.size() && std::fflush(stream) == 0 && synced(stream);
  int error = ok ? 0 : errno;
  if (std::fclose(stream) != 0 && ok) {
    ok = false;
    error = errno;
  }
  return ok ? std::string() : "cannot write " + path.string() + ": " + std::strerror(error != 0 ? error : EIO);
}

// The paths a folder being written at temp holds, in the order that removes
// them (files, then folders deepest first, then temp itself), for temp_guard.
auto folder_paths(const std::string& temp, const std::vector<folder_file>& files) -> std::vector<std::string> {
  std::vector<std::string> out;
  std::vector<std::filesystem::path> folders;
  for (const auto& file : files) {
    auto path = std::filesystem::path(temp) / file.path;
    out.push_back(path.string());
    for (auto up = path.parent_path(); up.string().size() > temp.size(); up = up.parent_path()) folders.push_back(up);
  }
  std::sort(folders.begin(), folders.end());
  folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
  // A folder sorts before what lies inside it: backwards, the deepest come first.
  for (auto it = folders.rbegin(); it != folders.rend(); ++it) out.push_back(it->string());
  out.push_back(temp);
  return out;
}

// Reports whether inside is path or lies under it (both made absolute and normalised, links resolved).
auto lies_inside(const std::filesystem::path& inside, const std::filesystem::path& path) -> bool {
  std::error_code ec;
  auto a = std::filesystem::weakly_canonical(std::filesystem::absolute(inside, ec), ec);
  if (ec) return false;
  auto b = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  if (ec) return false;
  auto [end, unused] = std::mismatch(b.begin(), b.end(), a.begin(), a.end());
  (void)unused;
  return end == b.end() || (std::next(end) == b.end() && end->empty());
}

}  // namespace

auto directory_problem(const std::string& given, bool force) -> std::string {
  namespace fs = std::filesystem;
  for (const auto& input : inputs()) {
    if (lies_inside(input, given)) return "holds an input of this run (" + input + "), and inputs are never modified";
  }
  for (const auto& output : written()) {
    if (lies_inside(output, given)) return "holds an output of this run (" + output + "): write it elsewhere";
  }
  std::error_code ec;
  auto status = fs::status(given, ec);  // of what links lead to
  if (!fs::exists(status)) return {};
  if (!fs::is_directory(status)) return "exists and is not a folder";
  bool empty = fs::is_empty(given, ec);
  if (ec) return "cannot read the folder: " + ec.message();
  return empty || force ? std::string() : "exists and is not empty: pass --force to replace it";
}

auto write_directory_atomically(const std::string& given, const std::vector<folder_file>& files, bool force)
    -> std::string {
  namespace fs = std::filesystem;
  if (auto why = directory_problem(given, force); !why.empty()) return why;
  std::error_code ec;
  fs::path dir = fs::path(given).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "runbooks/" is the folder runbooks
  if (fs::is_symlink(fs::symlink_status(dir, ec))) {
    dir = fs::canonical(dir, ec);  // replace the folder a link names, not the link
    if (ec) return "cannot follow the link: " + ec.message();
  }
  bool empty = !fs::exists(dir, ec) || fs::is_empty(dir, ec);
  fs::path parent = fs::absolute(dir, ec).parent_path();
  fs::create_directories(parent, ec);  // as mkdir -p: --emit out/runbooks makes out/
  if (ec) return "cannot create " + parent.string() + ": " + ec.message();
  std::string temp = (parent / ".cidrcheck-XXXXXX").string();
  // As for a file: the signals wait until the folder's guard is set up. It
  // removes every file the folder will hold, then its folders deepest first,
  // then the folder itself.
  std::optional<signals_held> held(std::in_place);
  if (::mkdtemp(temp.data()) == nullptr) {
    int error = errno;
    held.reset();
    return "cannot create a folder in " + parent.string() + ": " + std::strerror(error);
  }
  std::optional<temp_guard> guard(std::in_place, folder_paths(temp, files));
  held.reset();
  auto fail = [&](std::string why) {
    std::error_code ignored;
    fs::remove_all(temp, ignored);
    return why;
  };
  // The folder gets what mkdir(2) would give it (mkdtemp makes it 0700).
  mode_t mask = ::umask(0);
  ::umask(mask);
  if (::chmod(temp.c_str(), 0777 & ~mask) != 0) return fail(std::string("cannot set permissions: ") + std::strerror(errno));
  for (const auto& file : files) {
    fs::path path = fs::path(temp) / file.path;
    fs::create_directories(path.parent_path(), ec);
    if (ec) return fail("cannot create " + path.parent_path().string() + ": " + ec.message());
    if (auto why = write_new_file(path, file.text); !why.empty()) return fail(why);
  }
  for (auto it = fs::recursive_directory_iterator(temp, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory() && !sync_directory(it->path())) return fail("cannot sync " + it->path().string());
  }
  if (!sync_directory(temp)) return fail(std::string("cannot sync the folder: ") + std::strerror(errno));
  // From the swap on, the signals wait until the old folder is gone: a signal
  // then ends the run after the new folder is in place, with nothing left beside it.
  held.emplace();
  guard.reset();
  if (empty) {
    // rename(2) replaces an empty folder, or takes a free name.
    if (std::rename(temp.c_str(), dir.c_str()) != 0) return fail(std::string("cannot replace the folder: ") + std::strerror(errno));
  } else if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, dir.c_str(), RENAME_EXCHANGE) == 0) {
    fs::remove_all(temp, ec);  // the old folder, now at the temporary name
  } else {
    // A file system without exchange: the old folder steps aside first.
    std::string aside = (parent / ".cidrcheck-old-XXXXXX").string();
    if (::mkdtemp(aside.data()) == nullptr || std::rename(dir.c_str(), (fs::path(aside) / "old").c_str()) != 0) {
      return fail(std::string("cannot replace the folder: ") + std::strerror(errno));
    }
    if (std::rename(temp.c_str(), dir.c_str()) != 0) {
      int error = errno;
      std::rename((fs::path(aside) / "old").c_str(), dir.c_str());
      fs::remove_all(aside, ec);
      return fail(std::string("cannot replace the folder: ") + std::strerror(error));
    }
    fs::remove_all(aside, ec);
  }
  if (!sync_directory(parent)) return std::string("cannot sync the parent folder: ") + std::strerror(errno);
  return {};
}

void note_input(const std::string& path) {
  if (path.empty() || path == "-") return;
  if (std::find(inputs().begin(), inputs().end(), path) == inputs().end()) inputs().push_back(path);
}

void refuse_input_as_output(const std::string& path, std::span<const std::string> sources, const std::string& help) {
  for (const auto& s : sources) note_input(std::string(parse_source_spec(s).path));
  if (path.empty() || path == "-") return;
  if (const auto* input = noted_input(path)) {
    auto what = *input == path ? std::string() : " (as " + *input + ")";
    throw usage_error(detail::printable(path) + " is an input file" + detail::printable(what) +
                          ", and inputs are never modified: write elsewhere",
                      help);
  }
}

void refuse_shared_outputs(std::span<const std::string> paths, const std::string& help) {
  for (std::size_t k = 0; k < paths.size(); ++k) {
    if (paths[k].empty() || paths[k] == "-") continue;
    for (std::size_t j = 0; j < k; ++j) {
      if (paths[j].empty() || paths[j] == "-" || !same_file(paths[j], paths[k])) continue;
      auto names = paths[j] == paths[k] ? paths[k] : paths[j] + " and " + paths[k];
      throw usage_error("two outputs go to " + detail::printable(names) + ": give each its own file", help);
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
  if (!error.empty()) std::cerr << detail::printable(path) << ": error: " << error << "\n";
  return error.empty();
}

}  // namespace cidrcheck::cli
