#include "report.hpp"

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

auto location(json& j, const source_location& where) {
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

}  // namespace

void write_json(output& out, const check_report& r) {
  // Streamed finding by finding, so memory stays flat however many findings there
  // are; each connection a finding goes through is listed once, in "connections".
  json head;
  head["version"] = 1;
  head["tool"] = {{"name", "cidrcheck"}, {"version", version_string}};
  auto counts = count_severities(r.findings);
  head["summary"] = {{"errors", counts.errors},
                     {"warnings", counts.warnings},
                     {"notes", counts.notes},
                     {"findings", r.findings.size()},
                     {"owners", r.model.owners.size()},
                     {"ranges", r.model.ranges.size()},
                     {"connections", r.model.connections.size()},
                     {"files", r.files}};
  auto text = head.dump(2);
  text.pop_back();  // reopen the object: "\n}"
  text.pop_back();
  out.write(text);
  out.write(",\n  \"findings\": [");
  std::vector<std::uint32_t> used_connections;
  for (std::size_t n = 0; n < r.findings.size(); ++n) {
    const auto& x = r.findings[n];
    json j;
    j["rule"] = info(x.id).name;
    j["rule_id"] = info(x.id).id;
    j["severity"] = to_string(x.level);
    j["message"] = x.message;
    if (x.overlap) {
      j["overlap"] = {{"first", x.overlap->first().to_string()}, {"last", x.overlap->last().to_string()}};
      if (auto p = x.overlap->to_prefix()) j["overlap"]["cidr"] = p->to_string();
    }
    json ranges = json::array();
    for (auto k : x.ranges) ranges.push_back(range_json(r.model, k));
    j["ranges"] = ranges;
    if (x.routed_at) j["routed_at"] = r.model.owners[*x.routed_at].name;
    if (!x.via.empty()) {
      json via = json::array();
      for (auto c : x.via) {
        via.push_back(c);
        used_connections.push_back(c);
      }
      j["via"] = via;
    }
    if (x.block) j["block"] = {{"cidr", x.block->cidr.to_string()}, {"name", x.block->name}, {"source", x.block->source}};
    j["hint"] = x.hint;
    out.write(n == 0 ? "\n    " : ",\n    ");
    out.write(j.dump());
    out.maybe_flush();
  }
  out.write(r.findings.empty() ? "],\n" : "\n  ],\n");
  std::sort(used_connections.begin(), used_connections.end());
  used_connections.erase(std::unique(used_connections.begin(), used_connections.end()), used_connections.end());
  out.write("  \"connections\": [");
  for (std::size_t n = 0; n < used_connections.size(); ++n) {
    out.write(n == 0 ? "\n    " : ",\n    ");
    out.write(connection_json(r.model, used_connections[n]).dump());
  }
  out.write(used_connections.empty() ? "],\n" : "\n  ],\n");
  json warnings = json::array();
  for (const auto& d : r.warnings) {
    json j;
    j["severity"] = to_string(d.level);
    j["code"] = d.code;
    j["message"] = d.message;
    location(j, d.where);
    warnings.push_back(std::move(j));
  }
  out.write("  \"diagnostics\": ");
  out.write(warnings.dump());
  out.write("\n}\n");
}

}  // namespace cidrcheck::cli
