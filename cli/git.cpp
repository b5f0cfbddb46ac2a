#include "git.hpp"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <fcntl.h>
#include <filesystem>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace cidrcheck::cli {

namespace {

struct process_result {
  int status = -1;  ///< the exit code; -1 when git could not be run or was killed
  std::string out;
  bool too_large = false;  ///< the output passed max_out: git was killed
};

// Runs git with args, capturing its standard output (at most max_out bytes,
// else git is killed); its standard error goes to ours, or to /dev/null when quiet.
// core.fsmonitor is off: a repository's configuration could name a program for
// git to run as its file-system monitor, and cidrcheck only reads committed files.
auto run_git(std::vector<std::string> args, bool quiet, std::size_t max_out = SIZE_MAX) -> process_result {
  process_result result;
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return result;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  if (quiet) posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  args.insert(args.begin(), {"git", "-c", "core.fsmonitor=false"});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int spawned = ::posix_spawnp(&pid, "git", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (spawned == 0) {
    char buf[1 << 16];
    for (;;) {
      auto n = ::read(pipe_fds[0], buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      if (result.out.size() + static_cast<std::size_t>(n) > max_out) {
        result.too_large = true;
        result.out.clear();
        ::kill(pid, SIGKILL);
        break;
      }
      result.out.append(buf, static_cast<std::size_t>(n));
    }
  }
  ::close(pipe_fds[0]);
  if (spawned != 0) return result;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace

auto is_git_commit(const std::string& rev) -> bool {
  return run_git({"rev-parse", "--verify", "--quiet", rev + "^{commit}"}, true).status == 0;
}

auto repository_without_commits() -> bool {
  if (run_git({"rev-parse", "--git-dir"}, true).status != 0) return false;
  auto any = run_git({"rev-list", "-n", "1", "--all"}, true);
  return any.status == 0 && any.out.empty();
}

auto read_at_revision(const std::string& rev, const std::string& path, std::size_t max_bytes) -> revision_file {
  revision_file out;
  // A file outside the repository has no version at rev: say so, rather than pass git's "outside repository".
  auto top = run_git({"rev-parse", "--show-toplevel"}, true);
  if (top.status == 0 && !top.out.empty()) {
    while (!top.out.empty() && (top.out.back() == '\n' || top.out.back() == '\r')) top.out.pop_back();
    std::error_code ec;
    auto root = std::filesystem::weakly_canonical(top.out, ec);
    auto file = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
    auto inside = file.lexically_relative(root);
    if (!ec && (inside.empty() || *inside.begin() == "..")) {
      out.failed = true;
      out.error = "is outside the git repository (" + root.string() + "), so it has no version at " + rev +
                  "; name files inside it";
      return out;
    }
  }
  // git resolves "./PATH" against the working directory; an absolute path is made relative to it.
  std::filesystem::path p(path);
  std::error_code ec;
  if (p.is_absolute()) p = p.lexically_relative(std::filesystem::current_path(ec));
  std::string relative = p.generic_string();
  auto listed = run_git({"ls-tree", "--name-only", rev, "--", relative}, false);
  if (listed.status != 0) {
    out.failed = true;
    return out;
  }
  if (listed.out.empty()) return out;
  auto shown = run_git({"show", rev + ":./" + relative}, false, max_bytes);
  if (shown.too_large) {
    out.failed = true;
    out.error = "file is larger than the max-file-bytes limit of " + std::to_string(max_bytes) + " bytes";
    return out;
  }
  if (shown.status != 0) {
    out.failed = true;
    return out;
  }
  out.text = std::move(shown.out);
  return out;
}

}  // namespace cidrcheck::cli
