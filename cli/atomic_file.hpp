#pragma once
// Output files are written atomically: readers see the old file or the whole
// new one, never a part (a CI upload step racing a slow write, a full disk).

#include "output.hpp"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace cidrcheck::cli {

/// Writes the file at path in full or not at all: render() fills a temporary
/// file in the same directory, which then replaces path (rename(2)). A replaced
/// file keeps its permissions; a new one gets 0666 less the umask. A symbolic link
/// is followed (the link stays); a path that exists and is no regular file (a
/// device, a pipe), or is a stream of this process (output_stream()), is
/// written directly, never replaced; standard input is refused. Returns "" on
/// success, else why the file could not be written; the temporary file is
/// removed then. A file noted as an input (note_input), or written already by
/// this run, is refused.
auto write_file_atomically(const std::string& path, const std::function<void(output&)>& render) -> std::string;

/// A file of a folder written by write_directory_atomically.
struct folder_file {
  std::string path;  ///< relative to the folder; may name subfolders ("01-x/runbook.md")
  std::string text;
};

/// Writes the folder dir with exactly files in it, in full or not at all: the
/// files fill a temporary folder beside dir, which then takes dir's place
/// (rename(2); with force, an atomic exchange with the old folder, which is
/// then removed). Missing parent folders are made. dir may be missing or
/// empty; a dir that holds anything is replaced only with force. A dir that
/// is, or holds, an input or an output of this run is refused, force or not.
/// Returns "" on success, else why the folder could not be written; the
/// temporary folder is removed then.
auto write_directory_atomically(const std::string& dir, const std::vector<folder_file>& files, bool force)
    -> std::string;

/// Why write_directory_atomically(dir, ..., force) would refuse dir before
/// writing anything, or "": so a run can stop before its other outputs.
/// `outputs` are the files the run will write besides (`plan -o`), which dir
/// may not hold either; a mount point is refused (rename(2) cannot replace it).
auto directory_problem(const std::string& dir, bool force, std::span<const std::string> outputs = {}) -> std::string;

/// Returns the descriptor of this process an output path writes to without
/// naming a file of its own: 1 for "-"; the descriptor of descriptor_alias()
/// (/dev/stdout, /dev/fd/N, ...); or 0, 1 or 2 when the path names, by another
/// name, the regular file or pipe that descriptor has open (`-f json=out > out`).
/// nullopt for any other path. Standard input (0) is never written; any other
/// stream is written where it stands, never replaced by a rename.
auto output_stream(const std::string& path) -> std::optional<int>;

/// Reports whether a and b name one file: the same file when both exist, else
/// the same path once made absolute, normalised and its existing links resolved.
auto same_file(const std::string& a, const std::string& b) -> bool;

/// Records that this run reads path (a fleet file, an import, the configuration,
/// a baseline): from then on write_file_atomically refuses to write it, and
/// refuse_input_as_output refuses it as an output. "-" records standard input's
/// file; "" is ignored.
void note_input(const std::string& path);

/// Throws usage_error (of `cidrcheck <help>`) when path names one of the input
/// sources (fleet files or KIND:FILE imports, which it records with note_input),
/// any other file noted as an input, or standard input (output_stream() 0):
/// inputs are never modified.
void refuse_input_as_output(const std::string& path, std::span<const std::string> sources, const std::string& help);

/// Throws usage_error when two of paths name one file (the same path, or two
/// names of it: links, "./x" and "x"), since the second report would replace
/// the first, or when two go to standard output ("" and "-" stand for it, and
/// every path output_stream() says is descriptor 1), where the second
/// document would follow the first.
void refuse_shared_outputs(std::span<const std::string> paths, const std::string& help);

/// Writes a command's output to path atomically, or to standard output when
/// path is empty or output_stream() says 1. Prints why a write failed; returns
/// whether it succeeded.
auto write_output(const std::string& path, const std::function<void(output&)>& render) -> bool;

}  // namespace cidrcheck::cli
