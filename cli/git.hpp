#pragma once
// Reading files as they were at a git revision, for `cidrcheck diff --rev`.
// Runs the git executable on PATH in the working directory, with
// `-c core.fsmonitor=false`; git is not linked.

#include <cstddef>
#include <optional>
#include <string>

namespace cidrcheck::cli {

/// Reports whether rev names a commit of the repository around the working
/// directory (`git rev-parse --verify REV^{commit}`).
auto is_git_commit(const std::string& rev) -> bool;

/// Reports whether the working directory is in a git repository that has no
/// commit yet (before the first commit, HEAD names nothing).
auto repository_without_commits() -> bool;

/// The text of a file at a revision: nullopt when the file does not exist
/// there (it is new), an error when git fails (its message is on stderr) or
/// the file is too large (error says so).
struct revision_file {
  std::optional<std::string> text;
  bool failed = false;
  std::string error;  ///< why, when cidrcheck refused the file
};

/// Reads path (relative to the working directory) as it was at commit rev,
/// with `git ls-tree` and `git show REV:./PATH`. A path outside the repository
/// fails with an error that says so. A file larger than max_bytes
/// (the "max-file-bytes" limit) fails: git is stopped, nothing more is read.
auto read_at_revision(const std::string& rev, const std::string& path, std::size_t max_bytes) -> revision_file;

}  // namespace cidrcheck::cli
