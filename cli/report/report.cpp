#include "report.hpp"
#include "words.hpp"

#include <cidrcheck/fleet/rules.hpp>

namespace cidrcheck::cli {

auto count_severities(const findings_view& findings) -> severity_counts {
  severity_counts c;
  for (std::size_t k = 0; k < findings.size(); ++k) {
    const auto& x = findings.stored(k);  // the severity needs no text
    if (x.level == severity::error) ++c.errors;
    if (x.level == severity::warning) ++c.warnings;
    if (x.level == severity::note) ++c.notes;
  }
  return c;
}

auto locate(const fleet& f, const finding& x) -> finding_location {
  if (x.ranges.empty()) return {x.where, x.end_column};
  const auto& r = f.ranges[x.ranges.front()];
  return {r.where, r.end_column};
}

auto range_note(const fleet& f, const fleet_range& r) -> std::string {
  const owner& o = f.owners[r.owner];
  std::string subject = f.role_name(r) + " " + r.cidr.to_string() + " of " + o.name;
  switch (r.origin) {
    case range_origin::declared: return subject + " is declared here";
    case range_origin::distribution_default: return subject + " is the default of distribution " + o.type + ", set here";
    case range_origin::network_type: return subject + " comes with network type " + o.type + ", set here";
    case range_origin::cni_default: return subject + " is the default pool of CNI " + o.cni + ", set here";
  }
  return subject;
}

auto rule_help_uri(rule r) -> std::string {
  return std::string(CIDRCHECK_HOMEPAGE_URL) + "/blob/main/docs/rules/" + std::string(info(r).name) + ".md";
}

auto diagnostic_text(const diagnostic& d) -> std::string {
  std::string text = d.message;
  for (const auto& n : d.notes) text += "; " + (n.where.file.empty() ? std::string() : to_string(n.where) + ": ") + n.message;
  return text;
}

auto diagnostic_file(const check_report& r, const diagnostic& d) -> std::string {
  if (!d.where.file.empty()) return d.where.file;
  return r.files.empty() ? std::string("<stdin>") : r.files.front();
}

auto describe_counts(const severity_counts& c) -> std::string {
  return plural(c.errors, "error") + ", " + plural(c.warnings, "warning") + ", " + plural(c.notes, "note");
}

}  // namespace cidrcheck::cli
