#include "json_writer.hpp"
#include "report.hpp"

#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/version.hpp>

#include "json_dump.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace cidrcheck::cli {

namespace {

using json = nlohmann::ordered_json;

void location(json_writer& w, const source_location& where) {
  w.member("file", where.file);
  w.member("line", where.line);
  w.member("column", where.column);
}

void write_range(json_writer& w, const fleet& f, std::uint32_t k) {
  const auto& r = f.ranges[k];
  const auto& o = f.owners[r.owner];
  w.begin_object();
  w.member("owner", o.name);
  w.member("owner_kind", to_string(o.kind));
  w.member("role", f.role_name(r));
  w.member("cidr", r.cidr.to_string());
  w.member("origin", to_string(r.origin));
  location(w, r.where);
  if (r.end_column != 0) w.member("end_column", r.end_column);
  w.end_object();
}

void write_connection(json_writer& w, const fleet& f, std::uint32_t k) {
  const auto& c = f.connections[k];
  w.begin_object();
  w.member("index", k);
  if (!c.name.empty()) w.member("name", c.name);
  w.key("members");
  w.begin_array();
  for (auto m : c.members) w.value(f.owners[m].name);
  w.end_array();
  if (!c.via.empty()) w.member("via", c.via);
  w.key("routes");
  w.begin_array();
  for (auto role : {range_role::network, range_role::pods, range_role::services}) {
    if (c.routes.has(role)) w.value(to_string(role));
  }
  w.end_array();
  location(w, c.where);
  w.end_object();
}

// One finding's members (the caller opens and closes the object). Its
// connections are indexes into the document's "connections" when
// used_connections collects them; findings of another fleet (a diff's removed
// ones) leave "via" out.
void write_finding_members(json_writer& w, const fleet& f, const finding& x, const std::string& fingerprint,
                           std::vector<std::uint32_t>* used_connections) {
  w.member("rule", info(x.id).name);
  w.member("rule_id", info(x.id).id);
  w.member("severity", to_string(x.level));
  w.member("message", x.message);
  w.member("fingerprint", fingerprint);
  if (x.overlap) {
    w.key("overlap");
    w.begin_object();
    w.member("first", x.overlap->first().to_string());
    w.member("last", x.overlap->last().to_string());
    if (auto p = x.overlap->to_prefix()) w.member("cidr", p->to_string());
    w.end_object();
  }
  w.key("ranges");
  w.begin_array();
  for (auto k : x.ranges) write_range(w, f, k);
  w.end_array();
  if (x.ranges.empty()) {
    location(w, x.where);
    if (x.end_column != 0) w.member("end_column", x.end_column);
  }
  if (x.routed_at) w.member("routed_at", f.owners[*x.routed_at].name);
  if (!x.via.empty() && used_connections) {
    w.key("via");
    w.begin_array();
    for (auto c : x.via) w.value(c);
    w.end_array();
    used_connections->insert(used_connections->end(), x.via.begin(), x.via.end());
  }
  if (x.block) {
    w.key("block");
    w.begin_object();
    w.member("cidr", x.block->cidr.to_string());
    w.member("name", x.block->name);
    w.member("source", x.block->source);
    w.end_object();
  }
  w.member("hint", x.hint);
}

void write_suppression(json_writer& w, const suppression& s) {
  w.begin_object();
  w.member("reason", s.reason);
  if (s.expires) w.member("expires", to_iso_date(*s.expires));
  location(w, s.where);
  w.end_object();
}

// A load diagnostic, and its notes (related places) as diagnostics of their own.
void write_diagnostic(json_writer& w, const diagnostic& d) {
  w.begin_object();
  w.member("severity", to_string(d.level));
  w.member("code", d.code);
  w.member("message", d.message);
  location(w, d.where);
  if (!d.notes.empty()) {
    w.key("notes");
    w.begin_array();
    for (const auto& n : d.notes) write_diagnostic(w, n);
    w.end_array();
  }
  w.end_object();
}

// Writes `"key": [` items `]` one item a line, each rendered compactly by
// render(json_writer&, item), flushing as it goes.
template <class Items, class Render>
void write_array(output& out, std::string_view key, const Items& items, Render render, bool last = false) {
  out.write("  \"");
  out.write(key);
  out.write("\": [");
  std::size_t n = 0;
  for (const auto& item : items) {
    out.write(n++ == 0 ? "\n    " : ",\n    ");
    json_writer w(out.buffer());
    render(w, item);
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
  auto text = dump_json(std::move(head), 2);
  text.pop_back();  // reopen the object: "\n}"
  text.pop_back();
  out.write(text);
  out.write(",\n");
  std::vector<std::uint32_t> used;
  std::size_t k = 0;
  write_array(out, "findings", r.shown.findings, [&](json_writer& w, const finding& x) {
    w.begin_object();
    write_finding_members(w, f, x, r.shown.fingerprints[k++], &used);
    w.end_object();
  });
  std::vector<std::string> fingerprints;
  for (const auto& s : r.suppressed) fingerprints.push_back(fingerprint(f, s.value));
  k = 0;
  write_array(out, "suppressed", r.suppressed, [&](json_writer& w, const suppressed_finding& s) {
    w.begin_object();
    write_finding_members(w, f, s.value, fingerprints[k++], &used);
    w.key("suppression");
    write_suppression(w, r.suppressions[s.suppression]);
    w.end_object();
  });
  if (r.removed) {
    k = 0;
    write_array(out, "removed", r.removed->findings, [&](json_writer& w, const finding& x) {
      w.begin_object();
      write_finding_members(w, r.removed->model, x, r.removed->fingerprints[k++], nullptr);
      w.end_object();
    });
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  write_array(out, "connections", used, [&](json_writer& w, std::uint32_t c) { write_connection(w, f, c); });
  write_array(
      out, "diagnostics", r.diagnostics,
      write_diagnostic,
      true);
  out.write("}\n");
}

}  // namespace cidrcheck::cli
