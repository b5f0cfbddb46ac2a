#include "json_writer.hpp"
#include "report.hpp"

#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/records.hpp>
#include <cidrcheck/version.hpp>

#include "json_dump.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace cidrcheck::cli {

namespace {

using json = nlohmann::ordered_json;

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
  head["version"] = record_version;
  head["schema"] = check_report_schema;
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
  // Each connection a finding goes through is listed once, in "connections".
  std::vector<std::uint32_t> used;
  std::size_t k = 0;
  write_array(out, "findings", r.shown.findings, [&](json_writer& w, const finding& x) {
    write_finding_record(w, f, x, r.shown.findings.fingerprint(k++));
    used.insert(used.end(), x.via.begin(), x.via.end());
  });
  k = 0;
  write_array(out, "suppressed", r.suppressed, [&](json_writer& w, const suppressed_finding& s) {
    write_suppressed_record(w, f, s, r.suppressions, fingerprint(f, s.value));
    used.insert(used.end(), s.value.via.begin(), s.value.via.end());
  });
  if (r.removed) {
    write_array(out, "removed", r.removed->findings, [&](json_writer& w, const finding& x) {
      write_finding_record(w, r.removed->model, x, r.removed->findings.fingerprint(k++), false);
    });
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  write_array(out, "connections", used, [&](json_writer& w, std::uint32_t c) { write_connection_record(w, f, c); });
  write_array(out, "diagnostics", r.diagnostics, [](json_writer& w, const diagnostic& d) { write_diagnostic_record(w, d); },
              true);
  out.write("}\n");
}

}  // namespace cidrcheck::cli
