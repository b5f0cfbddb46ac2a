#include "report.hpp"

#include <cidrcheck/fleet/rules.hpp>

namespace cidrcheck::cli {

auto count_severities(const std::vector<finding>& findings) -> severity_counts {
  severity_counts c;
  for (const auto& x : findings) {
    if (x.level == severity::error) ++c.errors;
    if (x.level == severity::warning) ++c.warnings;
    if (x.level == severity::note) ++c.notes;
  }
  return c;
}

namespace {

auto location_text(const source_location& where) -> std::string {
  return where.file.empty() ? std::string("cidrcheck") : to_string(where);
}

auto plural(std::size_t n, const char* word) -> std::string {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// Says where a range came from, for the note that points at it.
auto range_note(const fleet& f, const fleet_range& r) -> std::string {
  const owner& o = f.owners[r.owner];
  std::string subject = f.role_name(r) + " " + r.cidr.to_string() + " of " + o.name;
  switch (r.origin) {
    case range_origin::declared: return subject + " is declared here";
    case range_origin::distribution_default: return subject + " is the default of distribution " + o.type + ", set here";
    case range_origin::network_type: return subject + " comes with network type " + o.type + ", set here";
  }
  return subject;
}

}  // namespace

void write_text(output& out, const check_report& r) {
  auto& buf = out.buffer();
  for (const auto& x : r.findings) {
    const auto& first = r.model.ranges[x.ranges.front()];
    buf += location_text(first.where);
    buf += ": ";
    buf += to_string(x.level);
    buf += '[';
    buf += info(x.id).name;
    buf += "]: ";
    buf += x.message;
    buf += '\n';
    for (std::size_t k = 1; k < x.ranges.size(); ++k) {
      const auto& other = r.model.ranges[x.ranges[k]];
      buf += location_text(other.where) + ": note: " + range_note(r.model, other) + "\n";
    }
    if (first.origin != range_origin::declared) {
      buf += location_text(first.where) + ": note: " + range_note(r.model, first) + "\n";
    }
    for (auto c : x.via) {
      buf += location_text(r.model.connections[c].where) + ": note: " + r.model.describe_connection(c) +
             " is declared here\n";
    }
    if (!x.hint.empty()) buf += "  hint: " + x.hint + "\n";
    out.maybe_flush();
  }
  auto counts = count_severities(r.findings);
  std::size_t files = r.files.size();
  buf += plural(counts.errors, "error") + ", " + plural(counts.warnings, "warning") + ", " +
         plural(counts.notes, "note") + " in " + plural(r.model.ranges.size(), "range") + " of " +
         plural(r.model.owners.size(), "owner") + ", " + plural(r.model.connections.size(), "connection") + " (" +
         plural(files, "file") + ")\n";
}

}  // namespace cidrcheck::cli
