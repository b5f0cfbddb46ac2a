// A Markdown summary for a pull-request comment or $GITHUB_STEP_SUMMARY: a
// heading with the counts, a table of findings (at most max_rows, since
// comments are limited to 65,536 characters), the suppressed findings with
// their reasons, and for a diff what the change adds and removes.

#include "report.hpp"
#include "words.hpp"

#include <algorithm>
#include <cctype>

#include <cidrcheck/detail/text.hpp>
#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/fleet/rules.hpp>

namespace cidrcheck::cli {

namespace {

constexpr std::size_t max_rows = 100;

constexpr std::string_view zero_width_space = "\u200B";

// Text from the input (names inside messages, reasons, file names) as inert
// Markdown: one line with no control characters (detail::printable); the
// characters that open emphasis, code spans, links and images, strikethrough
// and table columns backslash-escaped (CommonMark escapes any ASCII
// punctuation); '<', '>' and '&' as entities, so no HTML, autolink or entity
// gets through; and a zero-width space after '@' before a name, after '#'
// before a number, in "://" and after "www", since GitHub links mentions,
// issue references and bare URLs after Markdown is parsed, where a backslash
// no longer counts (github/markup#1168, github/cmark-gfm#181).
auto cell(std::string_view text) -> std::string {
  auto line = detail::printable(text);
  std::string out;
  out.reserve(line.size());
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-'; };
  for (std::size_t k = 0; k < line.size(); ++k) {
    char c = line[k];
    char next = k + 1 < line.size() ? line[k + 1] : '\0';
    switch (c) {
      case '\\': case '`': case '*': case '_': case '[': case ']': case '~': case '|':
        out += '\\';
        out += c;
        break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '@':
        out += c;
        if (word_char(next)) out += zero_width_space;
        break;
      case '#':
        out += c;
        if (std::isdigit(static_cast<unsigned char>(next)) != 0) out += zero_width_space;
        break;
      case ':':
        out += c;
        if (line.compare(k, 3, "://") == 0) out += zero_width_space;
        break;
      default:
        out += c;
        if ((c == 'w' || c == 'W') && k >= 2 && (line[k - 1] | 0x20) == 'w' && (line[k - 2] | 0x20) == 'w' && next == '.') {
          out += zero_width_space;
        }
    }
  }
  return out;
}

// Text from the input as a code span: a fence longer than any run of
// backticks in it, blanks inside the fence when it starts or ends with one,
// in a table '|' escaped (GFM tables split cells at '|' even in code spans).
auto code_span(std::string_view text, bool in_table) -> std::string {
  auto line = detail::printable(text);
  std::size_t longest = 0, run = 0;
  std::string body;
  for (char c : line) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (c == '|' && in_table) body += '\\';
    body += c;
  }
  std::string fence(longest + 1, '`');
  bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

void findings_table(output& out, const fleet& f, std::span<const finding> findings) {
  if (findings.empty()) {
    out.write("No findings.\n\n");
    return;
  }
  auto& buf = out.buffer();
  buf += "| Severity | Rule | Where | Finding |\n| --- | --- | --- | --- |\n";
  for (std::size_t k = 0; k < findings.size() && k < max_rows; ++k) {
    const auto& x = findings[k];
    buf += "| " + std::string(to_string(x.level)) + " | [" + std::string(info(x.id).name) + "](" +
           rule_help_uri(x.id) + ") " + std::string(info(x.id).id) + " | " + code_span(to_string(locate(f, x).where), true) +
           " | " + cell(x.message) + " |\n";
    out.maybe_flush();
  }
  if (findings.size() > max_rows) {
    buf += "\n... and " + plural(findings.size() - max_rows, "more finding") + "; the full list is in the other reports.\n";
  }
  buf += '\n';
}

void suppressed_table(output& out, const check_report& r) {
  if (r.suppressed.empty()) return;
  const fleet& f = r.shown.model;
  auto& buf = out.buffer();
  buf += "<details><summary>" + plural(r.suppressed.size(), "suppressed finding") + "</summary>\n\n";
  buf += "| Rule | Entities | Reason | Expires |\n| --- | --- | --- | --- |\n";
  for (std::size_t k = 0; k < r.suppressed.size() && k < max_rows; ++k) {
    const auto& x = r.suppressed[k].value;
    const auto& s = r.suppressions[r.suppressed[k].suppression];
    std::string entities;
    for (auto range : x.ranges) entities += (entities.empty() ? "" : ", ") + entity_id(f, f.ranges[range]);
    buf += "| " + std::string(info(x.id).name) + " | " + cell(entities) + " | " + cell(s.reason) + " | " +
           (s.expires ? to_iso_date(*s.expires) : "never") + " |\n";
  }
  if (r.suppressed.size() > max_rows) buf += "\n... and " + std::to_string(r.suppressed.size() - max_rows) + " more.\n";
  buf += "\n</details>\n\n";
}

}  // namespace

void write_markdown(output& out, const check_report& r) {
  const fleet& f = r.shown.model;
  auto counts = describe_counts(count_severities(r.shown.findings));
  std::string hidden;
  if (r.baselined != 0) hidden += "; " + std::to_string(r.baselined) + " in the baseline";
  if (r.below_minimum != 0) hidden += "; " + std::to_string(r.below_minimum) + " below the minimum severity";
  if (r.removed) {
    out.write("### cidrcheck: this change adds " + counts + " and removes " +
              plural(r.removed->findings.size(), "finding") + "\n\nCompared with " + code_span(r.old_name, false) + hidden +
              ".\n\n#### Added\n\n");
    findings_table(out, f, r.shown.findings);
    out.write("#### Removed\n\n");
    findings_table(out, r.removed->model, r.removed->findings);
  } else {
    std::string files;
    for (const auto& file : r.files) files += (files.empty() ? "" : ", ") + code_span(file, false);
    out.write("### cidrcheck: " + counts + "\n\n" + plural(f.ranges.size(), "range") + " of " +
              plural(f.owners.size(), "owner") + ", " + plural(f.connections.size(), "connection") + " in " + files +
              hidden + ".\n\n");
    findings_table(out, f, r.shown.findings);
  }
  suppressed_table(out, r);
}

}  // namespace cidrcheck::cli
