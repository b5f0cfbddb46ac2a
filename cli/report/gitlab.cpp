// GitLab Code Quality: an array of issues with the fields GitLab reads
// (description, check_name, fingerprint, severity, location.path and
// location.lines.begin). GitLab shows one issue per fingerprint, so each
// finding's fingerprint is unique in the report.

#include "report.hpp"

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

}  // namespace

void write_gitlab(output& out, const check_report& r) {
  using json = nlohmann::ordered_json;
  out.write("[");
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
    j["fingerprint"] = r.shown.fingerprints[k];
    j["location"] = {{"path", at.where.file}, {"lines", {{"begin", std::max<std::uint32_t>(at.where.line, 1)}}}};
    out.write(k == 0 ? "\n  " : ",\n  ");
    out.write(dump_json(std::move(j)));
    out.maybe_flush();
  }
  out.write(r.shown.findings.empty() ? "]\n" : "\n]\n");
}

}  // namespace cidrcheck::cli
