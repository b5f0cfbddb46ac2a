// SARIF 2.1.0 as GitHub code scanning reads it: every rule with its
// documentation, full regions, the other range and the connections as related
// locations, and a partial fingerprint that does not depend on lines.

#include "report.hpp"

#include <cidrcheck/fleet/rule_docs.hpp>
#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/version.hpp>

#include <nlohmann/json.hpp>

namespace cidrcheck::cli {

namespace {

using json = nlohmann::ordered_json;

// Percent-encodes a path into a relative URI reference; '/' stays a separator.
auto path_uri(std::string_view path) -> std::string {
  constexpr std::string_view hex = "0123456789ABCDEF";
  std::string out;
  for (char c : path) {
    auto u = static_cast<unsigned char>(c);
    bool keep = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
                std::string_view("-._~/").find(c) != std::string_view::npos;
    if (keep) {
      out += c;
    } else {
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 15];
    }
  }
  return out;
}

// The "What." paragraph of a rule's page as one line of plain text, at most
// 1024 bytes (GitHub's limit for fullDescription).
auto what_paragraph(rule id) -> std::string {
  auto page = rule_documentation(id);
  constexpr std::string_view marker = "**What.** ";
  auto start = page.find(marker);
  if (start == std::string_view::npos) return std::string(info(id).summary);
  start += marker.size();
  auto end = page.find("\n\n", start);
  std::string text(page.substr(start, end == std::string_view::npos ? page.npos : end - start));
  for (auto& c : text) {
    if (c == '\n') c = ' ';
  }
  if (text.size() > 1024) text = text.substr(0, 1021) + "...";
  return text;
}

auto sarif_level(severity s) -> const char* {
  switch (s) {
    case severity::error: return "error";
    case severity::warning: return "warning";
    case severity::note: return "note";
  }
  return "warning";
}

auto rule_json(const rule_info& r) -> json {
  auto page = std::string(rule_documentation(r.value));
  json j;
  j["id"] = r.id;
  j["name"] = r.name;
  j["shortDescription"] = {{"text", r.summary}};
  j["fullDescription"] = {{"text", what_paragraph(r.value)}};
  j["help"] = {{"text", page}, {"markdown", page}};
  j["helpUri"] = rule_help_uri(r.value);
  j["defaultConfiguration"] = {{"level", sarif_level(r.default_severity)}};
  const char* problem = r.default_severity == severity::note ? "recommendation" : sarif_level(r.default_severity);
  j["properties"] = {{"tags", {"network", "cidr"}}, {"precision", "very-high"}, {"problem.severity", problem}};
  return j;
}

auto physical_location(const source_location& where, std::uint32_t end_column) -> json {
  json j;
  j["artifactLocation"] = {{"uri", path_uri(where.file)}};
  if (where.line != 0) {
    // GitHub wants all four region fields; where the end is unknown, point at one column.
    auto column = std::max<std::uint32_t>(where.column, 1);
    j["region"] = {{"startLine", where.line},
                   {"startColumn", column},
                   {"endLine", where.line},
                   {"endColumn", end_column > column ? end_column : column + 1}};
  }
  return j;
}

auto result_json(const fleet& f, const finding& x, const std::string& fingerprint) -> json {
  auto at = locate(f, x);
  json related = json::array();
  std::string message = x.message;
  std::string see;
  auto relate = [&](const source_location& where, std::uint32_t end_column, const std::string& text) {
    auto id = related.size() + 1;
    json loc;
    loc["id"] = id;
    loc["physicalLocation"] = physical_location(where, end_column);
    loc["message"] = {{"text", text}};
    related.push_back(std::move(loc));
    see += (see.empty() ? "" : ", ") + std::string("[") + text + "](" + std::to_string(id) + ")";
  };
  for (std::size_t k = 1; k < x.ranges.size(); ++k) {
    const auto& r = f.ranges[x.ranges[k]];
    relate(r.where, r.end_column, range_note(f, r));
  }
  for (auto c : x.via) relate(f.connections[c].where, 0, f.describe_connection(c) + " is declared here");
  if (!see.empty()) message += ". See " + see;
  if (!x.hint.empty()) message += ". Hint: " + x.hint;
  json j;
  j["ruleId"] = info(x.id).id;
  j["ruleIndex"] = static_cast<std::size_t>(x.id);
  j["level"] = sarif_level(x.level);
  j["message"] = {{"text", message}};
  j["locations"] = json::array({{{"physicalLocation", physical_location(at.where, at.end_column)}}});
  if (!related.empty()) j["relatedLocations"] = related;
  j["partialFingerprints"] = {{"cidrcheckFingerprint/v1", fingerprint}};
  return j;
}

}  // namespace

void write_sarif(output& out, const check_report& r) {
  json rules = json::array();
  for (const auto& ri : rule_table()) rules.push_back(rule_json(ri));
  json results = json::array();
  for (std::size_t k = 0; k < r.shown.findings.size(); ++k) {
    results.push_back(result_json(r.shown.model, r.shown.findings[k], r.shown.fingerprints[k]));
  }
  json driver;
  driver["name"] = "cidrcheck";
  driver["version"] = version_string;
  driver["semanticVersion"] = version_string;
  driver["informationUri"] = CIDRCHECK_HOMEPAGE_URL;
  driver["rules"] = std::move(rules);
  json run;
  run["tool"] = {{"driver", std::move(driver)}};
  run["automationDetails"] = {{"id", "cidrcheck/"}};
  run["results"] = std::move(results);
  json log;
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = json::array({std::move(run)});
  out.write(log.dump(2));
  out.write("\n");
}

}  // namespace cidrcheck::cli
