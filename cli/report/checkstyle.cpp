// Checkstyle XML, as reviewdog (-f=checkstyle), Jenkins warnings-ng and most CI
// UIs read it: <checkstyle version="4.3"> holding one <file name="..."> per
// file, each with one <error line column severity message source> per finding
// (the shape ShellCheck writes; source is "cidrcheck.CIDR101"). Checkstyle's
// severities are error, warning, info and ignore: a note is info. The other
// range and the connections, which checkstyle has no place for, go into the
// message after the finding's own text. When the input could not be loaded,
// each load diagnostic is an <error> at its place, source "cidrcheck.CODE"
// ("cidrcheck.yaml-syntax"), so the dashboard shows why nothing was checked.

#include "report.hpp"

#include <cidrcheck/detail/xml.hpp>
#include <cidrcheck/fleet/rules.hpp>

#include <algorithm>
#include <span>
#include <utility>
#include <string>
#include <vector>

namespace cidrcheck::cli {

namespace {

auto checkstyle_severity(severity s) -> const char* {
  switch (s) {
    case severity::error: return "error";
    case severity::warning: return "warning";
    case severity::note: return "info";
  }
  return "warning";
}

// An attribute value: XML-escaped, and line breaks as character references so
// that a parser's attribute normalisation keeps them.
void append_attribute(std::string& out, std::string_view text) {
  std::string escaped;
  detail::append_xml_escaped(escaped, text);
  for (char c : escaped) {
    if (c == '\n') {
      out += "&#10;";
    } else if (c == '\r') {
      out += "&#13;";
    } else if (c == '\t') {
      out += "&#9;";
    } else {
      out += c;
    }
  }
}

auto full_message(const fleet& f, const finding& x) -> std::string {
  std::string text = x.message;
  for (std::size_t k = 1; k < x.ranges.size(); ++k) {
    const auto& r = f.ranges[x.ranges[k]];
    text += "; " + to_string(r.where) + ": " + range_note(f, r);
  }
  for (auto c : x.via) text += "; " + to_string(f.connections[c].where) + ": " + f.describe_connection(c) + " is declared here";
  if (!x.hint.empty()) text += ". Hint: " + x.hint;
  return text;
}

void append_error(std::string& buf, const source_location& where, severity level, std::string_view message,
                  std::string_view source) {
  buf += "    <error line=\"" + std::to_string(std::max<std::uint32_t>(where.line, 1)) + "\"";
  if (where.column != 0) buf += " column=\"" + std::to_string(where.column) + "\"";
  buf += " severity=\"";
  buf += checkstyle_severity(level);
  buf += "\" message=\"";
  append_attribute(buf, message);
  buf += "\" source=\"";
  append_attribute(buf, source);
  buf += "\"/>\n";
}

// Groups items by file: the report's inputs in order, then any other file an
// item names (file_of(k), for k < n); returns the files and each one's items.
template <class FileOf>
auto group_by_file(std::span<const std::string> inputs, std::size_t n, FileOf file_of)
    -> std::pair<std::vector<std::string>, std::vector<std::vector<std::size_t>>> {
  std::vector<std::string> files(inputs.begin(), inputs.end());
  std::vector<std::vector<std::size_t>> by_file(files.size());
  for (std::size_t k = 0; k < n; ++k) {
    auto file = file_of(k);
    auto it = std::find(files.begin(), files.end(), file);
    if (it == files.end()) {
      files.push_back(std::move(file));
      by_file.emplace_back();
      it = files.end() - 1;
    }
    by_file[static_cast<std::size_t>(it - files.begin())].push_back(k);
  }
  return {std::move(files), std::move(by_file)};
}

}  // namespace

void write_checkstyle(output& out, const check_report& r) {
  const fleet& f = r.shown.model;
  // What the report lists: the findings, or the load diagnostics when nothing was checked.
  std::size_t n = r.load_failed ? r.diagnostics.size() : r.shown.findings.size();
  auto [files, by_file] = group_by_file(r.files, n, [&](std::size_t k) -> std::string {
    return r.load_failed ? diagnostic_file(r, r.diagnostics[k]) : locate(f, r.shown.findings.stored(k)).where.file;
  });
  auto& buf = out.buffer();
  buf += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n";
  for (std::size_t i = 0; i < files.size(); ++i) {
    buf += "  <file name=\"";
    append_attribute(buf, files[i]);
    if (by_file[i].empty()) {
      buf += "\"/>\n";
      continue;
    }
    buf += "\">\n";
    for (auto k : by_file[i]) {
      if (r.load_failed) {
        const auto& d = r.diagnostics[k];
        append_error(buf, d.where, d.level, diagnostic_text(d), "cidrcheck." + d.code);
      } else {
        const auto& x = r.shown.findings[k];
        append_error(buf, locate(f, x).where, x.level, full_message(f, x), "cidrcheck." + std::string(info(x.id).id));
      }
      out.maybe_flush();
    }
    buf += "  </file>\n";
  }
  buf += "</checkstyle>\n";
}

}  // namespace cidrcheck::cli
