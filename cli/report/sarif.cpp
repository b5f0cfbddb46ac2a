// SARIF 2.1.0 as GitHub code scanning reads it: every rule with its
// documentation, full regions, the other range and the connections as related
// locations, and a partial fingerprint that does not depend on lines.

#include "json_writer.hpp"
#include "report.hpp"

#include <cidrcheck/fleet/rule_docs.hpp>
#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/version.hpp>

#include <algorithm>
#include <vector>

namespace cidrcheck::cli {

namespace {

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

void write_rule(json_writer& w, const rule_info& r) {
  auto page = rule_documentation(r.value);
  w.begin_object();
  w.member("id", r.id);
  w.member("name", r.name);
  w.key("shortDescription");
  w.begin_object();
  w.member("text", r.summary);
  w.end_object();
  w.key("fullDescription");
  w.begin_object();
  w.member("text", what_paragraph(r.value));
  w.end_object();
  w.key("help");
  w.begin_object();
  w.member("text", page);
  w.member("markdown", page);
  w.end_object();
  w.member("helpUri", rule_help_uri(r.value));
  w.key("defaultConfiguration");
  w.begin_object();
  w.member("level", sarif_level(r.default_severity));
  w.end_object();
  const char* problem = r.default_severity == severity::note ? "recommendation" : sarif_level(r.default_severity);
  w.key("properties");
  w.begin_object();
  w.key("tags");
  w.begin_array();
  w.value("network");
  w.value("cidr");
  w.end_array();
  w.member("precision", "very-high");
  w.member("problem.severity", problem);
  w.end_object();
  w.end_object();
}

void write_physical_location(json_writer& w, const source_location& where, std::uint32_t end_column) {
  w.begin_object();
  w.key("artifactLocation");
  w.begin_object();
  w.member("uri", path_uri(where.file));
  w.end_object();
  if (where.line != 0) {
    // GitHub wants all four region fields; where the end is unknown, point at one column.
    auto column = std::max<std::uint32_t>(where.column, 1);
    w.key("region");
    w.begin_object();
    w.member("startLine", where.line);
    w.member("startColumn", column);
    w.member("endLine", where.line);
    w.member("endColumn", end_column > column ? end_column : column + 1);
    w.end_object();
  }
  w.end_object();
}

void write_result(json_writer& w, const fleet& f, const finding& x, const std::string& fingerprint) {
  auto at = locate(f, x);
  struct related {
    const source_location* where;
    std::uint32_t end_column;
    std::string text;
  };
  std::vector<related> others;
  for (std::size_t k = 1; k < x.ranges.size(); ++k) {
    const auto& r = f.ranges[x.ranges[k]];
    others.push_back({&r.where, r.end_column, range_note(f, r)});
  }
  for (auto c : x.via) others.push_back({&f.connections[c].where, 0, f.describe_connection(c) + " is declared here"});
  // The message links each related location: "See [text](id)".
  std::string message = x.message;
  for (std::size_t k = 0; k < others.size(); ++k) {
    message += (k == 0 ? ". See " : ", ") + std::string("[") + others[k].text + "](" + std::to_string(k + 1) + ")";
  }
  if (!x.hint.empty()) message += ". Hint: " + x.hint;
  w.begin_object();
  w.member("ruleId", info(x.id).id);
  w.member("ruleIndex", static_cast<std::uint64_t>(x.id));
  w.member("level", sarif_level(x.level));
  w.key("message");
  w.begin_object();
  w.member("text", message);
  w.end_object();
  w.key("locations");
  w.begin_array();
  w.begin_object();
  w.key("physicalLocation");
  write_physical_location(w, at.where, at.end_column);
  w.end_object();
  w.end_array();
  if (!others.empty()) {
    w.key("relatedLocations");
    w.begin_array();
    for (std::size_t k = 0; k < others.size(); ++k) {
      w.begin_object();
      w.member("id", static_cast<std::uint64_t>(k + 1));
      w.key("physicalLocation");
      write_physical_location(w, *others[k].where, others[k].end_column);
      w.key("message");
      w.begin_object();
      w.member("text", others[k].text);
      w.end_object();
      w.end_object();
    }
    w.end_array();
  }
  w.key("partialFingerprints");
  w.begin_object();
  w.member("cidrcheckFingerprint/v1", fingerprint);
  w.end_object();
  w.end_object();
}

}  // namespace

void write_sarif(output& out, const check_report& r) {
  // Streamed result by result, so memory stays flat however many findings there are.
  json_writer w(out.buffer(), 2);
  w.begin_object();
  w.member("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  w.member("version", "2.1.0");
  w.key("runs");
  w.begin_array();
  w.begin_object();
  w.key("tool");
  w.begin_object();
  w.key("driver");
  w.begin_object();
  w.member("name", "cidrcheck");
  w.member("version", version_string);
  w.member("semanticVersion", version_string);
  w.member("informationUri", CIDRCHECK_HOMEPAGE_URL);
  w.key("rules");
  w.begin_array();
  for (const auto& ri : rule_table()) write_rule(w, ri);
  w.end_array();
  w.end_object();
  w.end_object();
  w.key("automationDetails");
  w.begin_object();
  w.member("id", "cidrcheck/");
  w.end_object();
  w.key("results");
  w.begin_array();
  for (std::size_t k = 0; k < r.shown.findings.size(); ++k) {
    write_result(w, r.shown.model, r.shown.findings[k], r.shown.fingerprints[k]);
    out.maybe_flush();
  }
  w.end_array();
  w.end_object();
  w.end_array();
  w.end_object();
  out.write("\n");
}

}  // namespace cidrcheck::cli
