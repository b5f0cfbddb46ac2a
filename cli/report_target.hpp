#pragma once
// `--format FORMAT[=PATH]`: which reports a run writes, and where.

#include "report/report.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cidrcheck::cli {

/// codeclimate is another name of gitlab (GitLab's Code Quality report is Code Climate's format).
enum class report_format { text, json, sarif, github, junit, gitlab, markdown, checkstyle, codeclimate, html };

/// The formats' names, in report_format order.
inline constexpr std::string_view report_format_names[] = {"text",     "json",       "sarif",       "github", "junit",
                                                           "gitlab",   "markdown",   "checkstyle", "codeclimate",
                                                           "html"};

/// One report: a format, written to a file or (path empty) to standard output.
struct report_target {
  report_format format = report_format::text;
  std::string path;
};

/// Parses the `--format` values "FORMAT" or "FORMAT=PATH"; with none, text to
/// standard output. At most one may go to standard output. Throws usage_error
/// (pointing at `cidrcheck <help> --help`) for an unknown format or a second
/// standard-output report.
auto parse_report_targets(const std::vector<std::string>& specs, const std::string& help) -> std::vector<report_target>;

/// Writes every report: the files first, each atomically, then standard
/// output. Colour and quiet apply to text on standard output only. Returns
/// false, after printing why, when a report could not be written.
auto write_reports(std::span<const report_target> targets, const check_report& r, const text_style& style) -> bool;

}  // namespace cidrcheck::cli
