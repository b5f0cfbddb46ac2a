#include "report.hpp"

#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/version.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace cidrcheck::cli {

namespace {

using json = nlohmann::ordered_json;

auto origin_name(range_origin o) -> const char* {
  switch (o) {
    case range_origin::declared: return "declared";
    case range_origin::distribution_default: return "distribution-default";
    case range_origin::network_type: return "network-type";
  }
  return "declared";
}

void location(json& j, const source_location& where) {
  j["file"] = where.file;
  j["line"] = where.line;
  j["column"] = where.column;
}

auto range_json(const fleet& f, std::uint32_t k) -> json {
  const auto& r = f.ranges[k];
  const auto& o = f.owners[r.owner];
  json j;
  j["owner"] = o.name;
  j["owner_kind"] = o.kind == owner_kind::cluster ? "cluster" : "network";
  j["role"] = f.role_name(r);
  j["cidr"] = r.cidr.to_string();
  j["origin"] = origin_name(r.origin);
  location(j, r.where);
  if (r.end_column != 0) j["end_column"] = r.end_column;
  return j;
}

auto connection_json(const fleet& f, std::uint32_t k) -> json {
  const auto& c = f.connections[k];
  json j;
  j["index"] = k;
  if (!c.name.empty()) j["name"] = c.name;
  json members = json::array();
  for (auto m : c.members) members.push_back(f.owners[m].name);
  j["members"] = members;
  if (!c.via.empty()) j["via"] = c.via;
  json routes = json::array();
  for (auto role : {range_role::network, range_role::pods, range_role::services}) {
    if (c.routes.has(role)) routes.push_back(to_string(role));
  }
  j["routes"] = routes;
  location(j, c.where);
  return j;
}

// One finding. Its connections are indexes into the document's "connections"
// when used_connections collects them; findings of another fleet (a diff's
// removed ones) leave "via" out.
auto finding_json(const fleet& f, const finding& x, const std::string& fingerprint,
                  std::vector<std::uint32_t>* used_connections) -> json {
  json j;
  j["rule"] = info(x.id).name;
  j["rule_id"] = info(x.id).id;
  j["severity"] = to_string(x.level);
  j["message"] = x.message;
  j["fingerprint"] = fingerprint;
  if (x.overlap) {
    j["overlap"] = {{"first", x.overlap->first().to_string()}, {"last", x.overlap->last().to_string()}};
    if (auto p = x.overlap->to_prefix()) j["overlap"]["cidr"] = p->to_string();
  }
  json ranges = json::array();
  for (auto k : x.ranges) ranges.push_back(range_json(f, k));
  j["ranges"] = ranges;
  if (x.ranges.empty()) {
    location(j, x.where);
    if (x.end_column != 0) j["end_column"] = x.end_column;
  }
  if (x.routed_at) j["routed_at"] = f.owners[*x.routed_at].name;
  if (!x.via.empty() && used_connections) {
    j["via"] = x.via;
    used_connections->insert(used_connections->end(), x.via.begin(), x.via.end());
  }
  if (x.block) j["block"] = {{"cidr", x.block->cidr.to_string()}, {"name", x.block->name}, {"source", x.block->source}};
  j["hint"] = x.hint;
  return j;
}

auto suppression_json(const suppression& s) -> json {
  json j;
  j["reason"] = s.reason;
  if (s.expires) j["expires"] = to_iso_date(*s.expires);
  location(j, s.where);
  return j;
}

// Writes `"key": [` items `]` one item a line, flushing as it goes.
template <class Items, class Render>
void write_array(output& out, std::string_view key, const Items& items, Render render, bool last = false) {
  out.write("  \"");
  out.write(key);
  out.write("\": [");
  std::size_t n = 0;
  for (const auto& item : items) {
    out.write(n++ == 0 ? "\n    " : ",\n    ");
    out.write(render(item).dump());
    out.maybe_flush();
  }
  out.write(n == 0 ? "]" : "\n  ]");
  out.write(last ? "\n" : ",\n");
}

}  // namespace

void write_json(output& out, const check_report& r) {
  // Streamed finding by finding, so memory stays flat however many findings there
  // are; each connection a finding goes through is listed once, in "connections".
  const fleet& f = r.shown.model;
  json head;
  head["version"] = 1;
  head["tool"] = {{"name", "cidrcheck"}, {"version", version_string}};
  auto counts = count_severities(r.shown.findings);
  head["summary"] = {{"errors", counts.errors},
                     {"warnings", counts.warnings},
                     {"notes", counts.notes},
                     {"findings", r.shown.findings.size()},
                     {"suppressed", r.suppressed.size()},
                     {"baselined", r.baselined},
                     {"below_minimum", r.below_minimum},
                     {"owners", f.owners.size()},
                     {"ranges", f.ranges.size()},
                     {"connections", f.connections.size()},
                     {"files", r.files}};
  if (r.removed) {
    head["summary"]["removed"] = r.removed->findings.size();
    head["summary"]["against"] = r.old_name;
  }
  auto text = head.dump(2);
  text.pop_back();  // reopen the object: "\n}"
  text.pop_back();
  out.write(text);
  out.write(",\n");
  std::vector<std::uint32_t> used;
  std::size_t k = 0;
  write_array(out, "findings", r.shown.findings,
              [&](const finding& x) { return finding_json(f, x, r.shown.fingerprints[k++], &used); });
  std::vector<std::string> fingerprints;
  for (const auto& s : r.suppressed) fingerprints.push_back(fingerprint(f, s.value));
  k = 0;
  write_array(out, "suppressed", r.suppressed, [&](const suppressed_finding& s) {
    auto j = finding_json(f, s.value, fingerprints[k++], &used);
    j["suppression"] = suppression_json(r.suppressions[s.suppression]);
    return j;
  });
  if (r.removed) {
    k = 0;
    write_array(out, "removed", r.removed->findings, [&](const finding& x) {
      return finding_json(r.removed->model, x, r.removed->fingerprints[k++], nullptr);
    });
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  write_array(out, "connections", used, [&](std::uint32_t c) { return connection_json(f, c); });
  write_array(
      out, "diagnostics", r.warnings,
      [](const diagnostic& d) {
        json j;
        j["severity"] = to_string(d.level);
        j["code"] = d.code;
        j["message"] = d.message;
        location(j, d.where);
        return j;
      },
      true);
  out.write("}\n");
}

}  // namespace cidrcheck::cli
