#include "report_target.hpp"

#include "atomic_file.hpp"
#include "options.hpp"

#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/detail/text.hpp>

#include <iostream>
#include <unistd.h>

namespace cidrcheck::cli {

namespace {

void render(output& out, report_format format, const check_report& r, const text_style& style) {
  switch (format) {
    case report_format::text: write_text(out, r, style); break;
    case report_format::json: write_json(out, r); break;
    case report_format::sarif: write_sarif(out, r); break;
    case report_format::github: write_github(out, r); break;
    case report_format::junit: write_junit(out, r); break;
    case report_format::gitlab:
    case report_format::codeclimate: write_gitlab(out, r); break;
    case report_format::markdown: write_markdown(out, r); break;
    case report_format::checkstyle: write_checkstyle(out, r); break;
    case report_format::html: write_html(out, r); break;
  }
}

}  // namespace

auto parse_report_targets(const std::vector<std::string>& specs, const std::string& help)
    -> std::vector<report_target> {
  std::vector<report_target> out;
  bool to_stdout = false;
  for (const auto& spec : specs) {
    auto eq = spec.find('=');
    std::string name = spec.substr(0, eq);
    report_target t;
    auto it = std::find(std::begin(report_format_names), std::end(report_format_names), name);
    if (it == std::end(report_format_names)) {
      throw usage_error("unknown format '" + name + "'" + detail::did_you_mean(name, report_format_names) +
                            "; the formats are text, json, sarif, github, junit, gitlab (or codeclimate), markdown, "
                            "checkstyle and html",
                        help);
    }
    t.format = static_cast<report_format>(it - std::begin(report_format_names));
    if (eq != std::string::npos) {
      t.path = spec.substr(eq + 1);
      if (t.path.empty()) throw usage_error("--format " + spec + ": the file name is missing after '='", help);
      // "-", /dev/stdout and other names of standard output are standard output.
      if (output_stream(t.path) == STDOUT_FILENO) t.path.clear();
    }
    if (t.path.empty()) {
      if (to_stdout) {
        throw usage_error("only one --format may write to standard output" +
                              (eq == std::string::npos ? std::string() : " (" + detail::printable(spec) + " does)") +
                              "; give the others =FILE",
                          help);
      }
      to_stdout = true;
    }
    out.push_back(std::move(t));
  }
  if (out.empty()) out.push_back({});
  std::vector<std::string> paths;
  for (const auto& t : out) paths.push_back(t.path);
  refuse_shared_outputs(paths, help);
  return out;
}

auto has_failure_report(report_format format) -> bool {
  switch (format) {
    case report_format::json:
    case report_format::sarif:
    case report_format::checkstyle:
    case report_format::gitlab:
    case report_format::codeclimate:
    case report_format::html: return true;
    case report_format::text:
    case report_format::github:
    case report_format::junit:
    case report_format::markdown: return false;
  }
  return false;
}

auto write_reports(std::span<const report_target> targets, const check_report& r, const text_style& style) -> bool {
  bool ok = true;
  for (const auto& t : targets) {
    if (r.load_failed && !has_failure_report(t.format)) continue;
    if (!t.path.empty()) ok = write_output(t.path, [&](output& out) { render(out, t.format, r, text_style{}); }) && ok;
  }
  for (const auto& t : targets) {
    if (!t.path.empty() || (r.load_failed && !has_failure_report(t.format))) continue;
    output out;
    render(out, t.format, r, style);
    if (!out.flush()) ok = false;
  }
  return ok;
}

}  // namespace cidrcheck::cli
