// SARIF 2.1.0 as GitHub code scanning reads it: every rule with its
// documentation, full regions, the other range and the connections as related
// locations, and a partial fingerprint that does not depend on lines.
//
// Paths are relative to the repository, whatever directory cidrcheck runs in:
// each artifact's uri is relative to the base id %SRCROOT%, which
// originalUriBaseIds defines as the working tree that holds the working
// directory (the nearest directory upward with a .git), or the working
// directory outside one (SARIF 2.1.0 sections 3.4.4 and 3.14.14). So a run
// from infra/ that reads fleet.yaml reports infra/fleet.yaml, the path GitHub
// code scanning resolves against the checkout. A file outside that root is an
// absolute file URI with no base id; standard input stays "<stdin>".

#include "json_writer.hpp"
#include "report.hpp"

#include <cidrcheck/fleet/rule_docs.hpp>
#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/version.hpp>

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>
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

// Where artifact paths are relative to: the root of the repository (or the
// working directory), and the working directory, both absolute.
struct uri_base {
  std::filesystem::path root;  ///< empty when the working directory is unknown
  std::filesystem::path cwd;
};

auto find_uri_base() -> uri_base {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto cwd = fs::current_path(ec);
  if (ec) return {};
  for (auto dir = cwd;; dir = dir.parent_path()) {
    if (fs::exists(dir / ".git", ec)) return {dir, cwd};
    if (dir == dir.root_path() || dir.parent_path() == dir) break;
  }
  return {cwd, cwd};
}

// Returns the directory as a file URI ending in '/'.
auto directory_uri(const std::filesystem::path& dir) -> std::string {
  auto text = dir.generic_string();
  if (text.empty() || text.back() != '/') text += '/';
  return "file://" + path_uri(text);
}

// An artifact location: {uri relative to %SRCROOT%, true} or {absolute file URI, false}.
auto artifact_uri(const uri_base& base, std::string_view path) -> std::pair<std::string, bool> {
  namespace fs = std::filesystem;
  if (base.root.empty() || path.empty() || path.front() == '<') return {path_uri(path), false};
  fs::path p(path);
  auto absolute = (p.is_absolute() ? p : base.cwd / p).lexically_normal();
  auto relative = absolute.lexically_relative(base.root);
  if (!relative.empty() && *relative.begin() != "..") return {path_uri(relative.generic_string()), true};
  return {"file://" + path_uri(absolute.generic_string()), false};
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

void write_physical_location(json_writer& w, const uri_base& base, const source_location& where,
                             std::uint32_t end_column) {
  w.begin_object();
  w.key("artifactLocation");
  w.begin_object();
  auto [uri, relative] = artifact_uri(base, where.file);
  w.member("uri", uri);
  if (relative) w.member("uriBaseId", "%SRCROOT%");
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

void write_result(json_writer& w, const uri_base& base, const fleet& f, const finding& x,
                  const std::string& fingerprint) {
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
  write_physical_location(w, base, at.where, at.end_column);
  w.end_object();
  w.end_array();
  if (!others.empty()) {
    w.key("relatedLocations");
    w.begin_array();
    for (std::size_t k = 0; k < others.size(); ++k) {
      w.begin_object();
      w.member("id", static_cast<std::uint64_t>(k + 1));
      w.key("physicalLocation");
      write_physical_location(w, base, *others[k].where, others[k].end_column);
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

// A load diagnostic as a toolExecutionNotification (SARIF 2.1.0 section 3.58):
// its level, its message with the notes, its place, and its code as the descriptor.
void write_notification(json_writer& w, const uri_base& base, const diagnostic& d) {
  w.begin_object();
  w.member("level", sarif_level(d.level));
  w.key("message");
  w.begin_object();
  w.member("text", diagnostic_text(d));
  w.end_object();
  if (!d.where.file.empty()) {
    w.key("locations");
    w.begin_array();
    w.begin_object();
    w.key("physicalLocation");
    write_physical_location(w, base, d.where, 0);
    w.end_object();
    w.end_array();
  }
  if (!d.code.empty()) {
    w.key("descriptor");
    w.begin_object();
    w.member("id", d.code);
    w.end_object();
  }
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
  const auto base = find_uri_base();
  if (!base.root.empty()) {
    w.key("originalUriBaseIds");
    w.begin_object();
    w.key("%SRCROOT%");
    w.begin_object();
    w.member("uri", directory_uri(base.root));
    w.key("description");
    w.begin_object();
    w.member("text", "The repository's working tree: the nearest directory with a .git above the working directory, "
                     "or the working directory outside a repository.");
    w.end_object();
    w.end_object();
    w.end_object();
  }
  if (r.load_failed) {
    // The input could not be loaded: an invocation that failed, with why, and
    // an empty results array (present, as the schema asks of a log of a scan).
    w.key("invocations");
    w.begin_array();
    w.begin_object();
    w.member("executionSuccessful", false);
    w.key("toolExecutionNotifications");
    w.begin_array();
    for (const auto& d : r.diagnostics) write_notification(w, base, d);
    w.end_array();
    w.end_object();
    w.end_array();
  }
  w.key("results");
  w.begin_array();
  for (std::size_t k = 0; k < r.shown.findings.size(); ++k) {
    write_result(w, base, r.shown.model, r.shown.findings[k], r.shown.findings.fingerprint(k));
    out.maybe_flush();
  }
  w.end_array();
  w.end_object();
  w.end_array();
  w.end_object();
  out.write("\n");
}

}  // namespace cidrcheck::cli
