// A Markdown summary for a pull-request comment or $GITHUB_STEP_SUMMARY: a
// heading with the counts, a table of findings (at most max_rows, since
// comments are limited to 65,536 characters), the suppressed findings with
// their reasons, and for a diff what the change adds and removes.

#include "report.hpp"
#include "words.hpp"

#include <algorithm>
#include <cctype>

#include <cidrcheck/detail/markdown.hpp>
#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/fleet/rules.hpp>

namespace cidrcheck::cli {

namespace {

constexpr std::size_t max_rows = 100;

void findings_table(output& out, const fleet& f, const findings_view& findings) {
  if (findings.empty()) {
    out.write("No findings.\n\n");
    return;
  }
  auto& buf = out.buffer();
  buf += "| Severity | Rule | Where | Finding |\n| --- | --- | --- | --- |\n";
  for (std::size_t k = 0; k < findings.size() && k < max_rows; ++k) {
    const auto& x = findings[k];
    buf += "| " + std::string(to_string(x.level)) + " | [" + std::string(info(x.id).name) + "](" +
           rule_help_uri(x.id) + ") " + std::string(info(x.id).id) + " | " + detail::markdown_code_span(to_string(locate(f, x).where), true) +
           " | " + detail::markdown_text(x.message) + " |\n";
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
    buf += "| " + std::string(info(x.id).name) + " | " + detail::markdown_text(entities) + " | " + detail::markdown_text(s.reason) + " | " +
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
              plural(r.removed->findings.size(), "finding") + "\n\nCompared with " + detail::markdown_code_span(r.old_name, false) + hidden +
              ".\n\n#### Added\n\n");
    findings_table(out, f, r.shown.findings);
    out.write("#### Removed\n\n");
    findings_table(out, r.removed->model, r.removed->findings);
  } else {
    std::string files;
    for (const auto& file : r.files) files += (files.empty() ? "" : ", ") + detail::markdown_code_span(file, false);
    out.write("### cidrcheck: " + counts + "\n\n" + plural(f.ranges.size(), "range") + " of " +
              plural(f.owners.size(), "owner") + ", " + plural(f.connections.size(), "connection") + " in " + files +
              hidden + ".\n\n");
    findings_table(out, f, r.shown.findings);
  }
  suppressed_table(out, r);
}

}  // namespace cidrcheck::cli
