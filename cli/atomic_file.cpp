#include "atomic_file.hpp"

#include "options.hpp"

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/io/import.hpp>
#include <cidrcheck/io/read_file.hpp>

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

// Renders into stream, then closes it; returns "" or why the write failed.
auto write_and_close(std::FILE* stream, const std::function<void(output&)>& render) -> std::string {
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

// Writes to a path that is not a regular file (a device, a pipe) in place.
auto write_in_place(const std::string& path, const std::function<void(output&)>& render) -> std::string {
  std::FILE* stream = std::fopen(path.c_str(), "w");
  if (stream == nullptr) return std::string("cannot open: ") + std::strerror(errno);
  return write_and_close(stream, render);
}

// Writes to a descriptor this process holds, where it stands (through a copy,
// so that closing the copy leaves it open).
auto write_to_descriptor(int fd, const std::function<void(output&)>& render) -> std::string {
  std::fflush(stdout);  // what standard output holds goes first, in order
  int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (copy < 0) return std::string("cannot write: ") + std::strerror(errno);
  std::FILE* stream = ::fdopen(copy, "w");
  if (stream == nullptr) {
    int error = errno;
    ::close(copy);
    return std::string("cannot write: ") + std::strerror(error);
  }
  return write_and_close(stream, render);
}

// The message of a path that is standard input, refused as an output.
auto standard_input_refused(const std::string& path) -> std::string {
  return detail::printable(path) +
         " is standard input, which cidrcheck reads and never writes: give a file, or - for standard output";
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

// The signals that remove the temporary paths being written: every signal
// whose default action ends the process and that comes from outside it (kill,
// the terminal, timers, resource limits, a closed pipe, abort()), the
// real-time ones included. Left out: SIGKILL and SIGSTOP, which cannot be
// caught, and the faults of the program itself (SIGSEGV, SIGBUS, SIGFPE,
// SIGILL, SIGTRAP, SIGSYS), whose state is suspect and which sanitizers and
// debuggers handle.
auto cleanup_signals() -> const std::vector<int>& {
  static const std::vector<int> numbers = [] {
    std::vector<int> out{SIGHUP, SIGINT,  SIGQUIT,   SIGABRT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM,
                         SIGTERM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO};
#ifdef SIGSTKFLT
    out.push_back(SIGSTKFLT);
#endif
#ifdef SIGPWR
    out.push_back(SIGPWR);
#endif
    for (int n = SIGRTMIN; n <= SIGRTMAX; ++n) out.push_back(n);
    return out;
  }();
  return numbers;
}

// The set of the cleanup signals, for masks.
auto cleanup_set() -> sigset_t {
  sigset_t set;
  sigemptyset(&set);
  for (int number : cleanup_signals()) sigaddset(&set, number);
  return set;
}

// The temporary paths being written, for the signal handler: each cleanup
// signal removes them in their order (unlink, or rmdir for a folder the
// entries before it emptied; both async-signal-safe, and a path not made yet
// is skipped by its ENOENT), then ends the process as the signal would have.
const char* const* temps_for_signals = nullptr;
std::size_t temps_count = 0;
volatile std::sig_atomic_t temps_pending = 0;

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

// Removes the temporary paths, in the order given, if the run is ended by a
// cleanup signal while the guard lives. Paths are copied before the handlers
// are installed, so the handler reads memory nothing changes under it. A signal
// that does not end the process (ignored, as nohup does, or handled by someone
// else) is left as it is.
class temp_guard {
 public:
  explicit temp_guard(std::vector<std::string> paths)
      : paths_(std::move(paths)), previous_(cleanup_signals().size()) {
    for (const auto& path : paths_) pointers_.push_back(path.c_str());
    temps_for_signals = pointers_.data();
    temps_count = pointers_.size();
    temps_pending = 1;
    const auto& numbers = cleanup_signals();
    for (std::size_t k = 0; k < numbers.size(); ++k) {
      struct sigaction action {};
      action.sa_handler = remove_temps_and_reraise;
      action.sa_mask = cleanup_set();  // one removal at a time
      ::sigaction(numbers[k], &action, &previous_[k]);
      if (previous_[k].sa_handler != SIG_DFL) ::sigaction(numbers[k], &previous_[k], nullptr);
    }
  }
  temp_guard(const temp_guard&) = delete;
  auto operator=(const temp_guard&) -> temp_guard& = delete;
  ~temp_guard() {
    temps_pending = 0;
    const auto& numbers = cleanup_signals();
    for (std::size_t k = 0; k < numbers.size(); ++k) ::sigaction(numbers[k], &previous_[k], nullptr);
  }

 private:
  std::vector<std::string> paths_;
  std::vector<const char*> pointers_;
  std::vector<struct sigaction> previous_;
};

// Holds the cleanup signals back while it lives (pthread_sigmask); one that
// arrives meanwhile is delivered when it ends.
class signals_held {
 public:
  signals_held() {
    sigset_t held = cleanup_set();
    ::pthread_sigmask(SIG_BLOCK, &held, &previous_);
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

auto output_stream(const std::string& path) -> std::optional<int> {
  if (path == "-") return STDOUT_FILENO;
  if (auto fd = descriptor_alias(path)) return fd;
  // Another name of the file or pipe a standard stream has open: writing it
  // by a rename would leave the stream writing to the replaced file.
  struct stat named {};
  if (::stat(path.c_str(), &named) != 0 || !(S_ISREG(named.st_mode) || S_ISFIFO(named.st_mode))) return std::nullopt;
  for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
    struct stat open {};
    if (::fstat(fd, &open) == 0 && open.st_dev == named.st_dev && open.st_ino == named.st_ino) return fd;
  }
  return std::nullopt;
}

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
  if (auto fd = output_stream(given)) {
    if (*fd == STDIN_FILENO) return standard_input_refused(given);
    return write_to_descriptor(*fd, render);
  }
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

auto directory_problem(const std::string& given, bool force, std::span<const std::string> outputs) -> std::string {
  namespace fs = std::filesystem;
  for (const auto& input : inputs()) {
    if (lies_inside(input, given)) return "holds an input of this run (" + input + "), and inputs are never modified";
  }
  auto holds_output = [&](const std::string& output) {
    return !output.empty() && output != "-" && lies_inside(output, given);
  };
  for (const auto& output : written()) {
    if (holds_output(output)) return "holds an output of this run (" + output + "): write it elsewhere";
  }
  for (const auto& output : outputs) {
    if (holds_output(output)) return "holds an output of this run (" + output + "): write it elsewhere";
  }
  std::error_code ec;
  auto status = fs::status(given, ec);  // of what links lead to
  if (!fs::exists(status)) return {};
  if (!fs::is_directory(status)) return "exists and is not a folder";
  // A mount point stays where it is: rename(2) cannot replace it (EBUSY).
  struct stat here {}, above {};
  if (::stat(given.c_str(), &here) == 0 && ::stat((fs::path(given) / "..").c_str(), &above) == 0 &&
      here.st_dev != above.st_dev) {
    return "is a mount point, which cannot be replaced: give a folder inside it";
  }
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
    // A file system without exchange: the old folder steps aside first, into
    // a folder of its own, which goes again if the old one cannot move (a
    // mount point: EBUSY).
    std::string aside = (parent / ".cidrcheck-old-XXXXXX").string();
    if (::mkdtemp(aside.data()) == nullptr) return fail(std::string("cannot replace the folder: ") + std::strerror(errno));
    if (std::rename(dir.c_str(), (fs::path(aside) / "old").c_str()) != 0) {
      int error = errno;
      ::rmdir(aside.c_str());
      return fail(std::string("cannot replace the folder: ") + std::strerror(error) +
                  (error == EBUSY ? " (a mount point cannot be replaced: give a folder inside it)" : ""));
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

void note_input(const std::string& given) {
  if (given.empty()) return;
  // Standard input's file, by a name every comparison (same_file) resolves.
  auto path = given == "-" ? std::string("/dev/stdin") : given;
  if (std::find(inputs().begin(), inputs().end(), path) == inputs().end()) inputs().push_back(path);
}

void refuse_input_as_output(const std::string& path, std::span<const std::string> sources, const std::string& help) {
  for (const auto& s : sources) note_input(std::string(parse_source_spec(s).path));
  if (path.empty() || path == "-") return;
  if (output_stream(path) == STDIN_FILENO) throw usage_error(standard_input_refused(path), help);
  if (const auto* input = noted_input(path)) {
    auto what = *input == path ? std::string() : " (as " + *input + ")";
    throw usage_error(detail::printable(path) + " is an input file" + detail::printable(what) +
                          ", and inputs are never modified: write elsewhere",
                      help);
  }
}

void refuse_shared_outputs(std::span<const std::string> paths, const std::string& help) {
  auto to_stdout = [](const std::string& path) { return path.empty() || output_stream(path) == STDOUT_FILENO; };
  for (std::size_t k = 0; k < paths.size(); ++k) {
    for (std::size_t j = 0; j < k; ++j) {
      if (!to_stdout(paths[j]) || !to_stdout(paths[k])) continue;
      std::string names;  // those given by a name
      for (const auto* p : {&paths[j], &paths[k]}) {
        if (!p->empty()) names += (names.empty() ? " (" : " and ") + detail::printable(*p);
      }
      throw usage_error("two outputs go to standard output" + names + (names.empty() ? "" : ")") +
                            ", where the second would follow the first: give all but one a file",
                        help);
    }
  }
  for (std::size_t k = 0; k < paths.size(); ++k) {
    if (to_stdout(paths[k])) continue;
    for (std::size_t j = 0; j < k; ++j) {
      if (to_stdout(paths[j]) || !same_file(paths[j], paths[k])) continue;
      auto names = paths[j] == paths[k] ? paths[k] : paths[j] + " and " + paths[k];
      throw usage_error("two outputs go to " + detail::printable(names) + ": give each its own file", help);
    }
  }
}

auto write_output(const std::string& path, const std::function<void(output&)>& render) -> bool {
  if (path.empty() || output_stream(path) == STDOUT_FILENO) {
    output out;
    render(out);
    return out.flush();
  }
  auto error = write_file_atomically(path, render);
  if (!error.empty()) std::cerr << detail::printable(path) << ": error: " << error << "\n";
  return error.empty();
}

}  // namespace cidrcheck::cli
