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
/// standard output. A PATH that is standard output ("-", /dev/stdout, the file
/// it is redirected to: output_stream()) is standard output, and at most one
/// report may go there. Throws usage_error
/// (pointing at `cidrcheck <help> --help`) for an unknown format or a second
/// standard-output report.
auto parse_report_targets(const std::vector<std::string>& specs, const std::string& help) -> std::vector<report_target>;

/// Reports whether a format has a document for a run whose input could not be
/// loaded (check_report::load_failed): json, sarif, checkstyle, gitlab,
/// codeclimate and html, whose readers (CI uploads, dashboards, a person
/// opening an artifact) take an empty or missing file for a clean run or fail
/// to parse it. text, github, junit and markdown have none.
auto has_failure_report(report_format format) -> bool;

/// Writes every report: the files first, each atomically, then standard
/// output; with r.load_failed, only those has_failure_report() accepts. Colour
/// and quiet apply to text on standard output only. Returns false, after
/// printing why, when a report could not be written.
auto write_reports(std::span<const report_target> targets, const check_report& r, const text_style& style) -> bool;

}  // namespace cidrcheck::cli
