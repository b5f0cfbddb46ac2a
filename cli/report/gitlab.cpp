// GitLab Code Quality: an array of issues with the fields GitLab reads
// (description, check_name, fingerprint, severity, location.path and
// location.lines.begin). GitLab shows one issue per fingerprint, so each
// finding's fingerprint is unique in the report. When the input could not be
// loaded, each load diagnostic is an issue (check_name "cidrcheck yaml-syntax"),
// so the merge request shows why nothing was checked: GitLab reads the
// artifact only as one JSON array, never an empty file.

#include "report.hpp"

#include <cidrcheck/detail/sha256.hpp>
#include <cidrcheck/fleet/rules.hpp>

#include "json_dump.hpp"

#include <nlohmann/json.hpp>

namespace cidrcheck::cli {

namespace {

auto gitlab_severity(severity s) -> const char* {
  switch (s) {
    case severity::error: return "critical";
    case severity::warning: return "minor";
    case severity::note: return "info";
  }
  return "minor";
}

using json = nlohmann::ordered_json;

// The issues for the load diagnostics of a fleet that could not be loaded,
// fingerprinted by what they say and their position in the report.
void write_load_issues(output& out, const check_report& r) {
  for (std::size_t k = 0; k < r.diagnostics.size(); ++k) {
    const auto& d = r.diagnostics[k];
    std::string text = diagnostic_text(d);
    json j;
    j["type"] = "issue";
    j["engine_name"] = "cidrcheck";
    j["check_name"] = "cidrcheck " + d.code;
    j["description"] = text;
    j["categories"] = {"Bug Risk"};
    j["severity"] = gitlab_severity(d.level);
    j["fingerprint"] = detail::sha256_hex(d.code + '\n' + to_string(d.where) + '\n' + text + '\n' + std::to_string(k));
    j["location"] = {{"path", diagnostic_file(r, d)},
                     {"lines", {{"begin", std::max<std::uint32_t>(d.where.line, 1)}}}};
    out.write(k == 0 ? "\n  " : ",\n  ");
    out.write(dump_json(std::move(j)));
  }
  out.write(r.diagnostics.empty() ? "]\n" : "\n]\n");
}

}  // namespace

void write_gitlab(output& out, const check_report& r) {
  out.write("[");
  if (r.load_failed) {
    write_load_issues(out, r);
    return;
  }
  for (std::size_t k = 0; k < r.shown.findings.size(); ++k) {
    const auto& x = r.shown.findings[k];
    auto at = locate(r.shown.model, x);
    json j;
    j["type"] = "issue";
    j["engine_name"] = "cidrcheck";
    j["check_name"] = std::string(info(x.id).id) + " " + std::string(info(x.id).name);
    j["description"] = x.message;
    j["content"] = {{"body", x.hint.empty() ? rule_help_uri(x.id) : x.hint + "\n\n" + rule_help_uri(x.id)}};
    j["categories"] = {"Bug Risk"};
    j["severity"] = gitlab_severity(x.level);
    j["fingerprint"] = r.shown.findings.fingerprint(k);
    j["location"] = {{"path", at.where.file}, {"lines", {{"begin", std::max<std::uint32_t>(at.where.line, 1)}}}};
    out.write(k == 0 ? "\n  " : ",\n  ");
    out.write(dump_json(std::move(j)));
    out.maybe_flush();
  }
  out.write(r.shown.findings.empty() ? "]\n" : "\n]\n");
}

}  // namespace cidrcheck::cli
