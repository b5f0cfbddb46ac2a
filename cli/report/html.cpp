// One self-contained HTML page for a CI artifact a person opens: the counts,
// the fleet's map (the SVG of `cidrcheck map`, inline), the findings as a
// table filtered by severity, rule and text, and the plan (`cidrcheck plan`'s
// changes and steps). Everything is in the one file: the styles and the few
// lines of script are inline, and a Content-Security-Policy of default-src
// 'none' keeps the browser from fetching anything when the page is opened
// (links to the rules' pages only open when clicked). Every text from the
// input is escaped with the one XML escaping (detail/xml.hpp), which is also
// HTML's.

#include "report.hpp"
#include "words.hpp"

#include <cidrcheck/detail/xml.hpp>
#include <cidrcheck/fleet/rules.hpp>
#include <cidrcheck/fleet/simulator.hpp>
#include <cidrcheck/records.hpp>
#include <cidrcheck/version.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace cidrcheck::cli {

namespace {

auto esc(std::string_view text) -> std::string {
  std::string out;
  detail::append_xml_escaped(out, text);
  return out;
}

constexpr std::string_view style = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:1.5em;color:#1f2328;}
h1{font-size:1.5em;margin:0 0 .3em 0}h2{font-size:1.2em;margin:1.5em 0 .5em 0}
.summary{margin:.3em 0 1em 0}.files{color:#59636e;font-size:.9em}
.map{overflow:auto;border:1px solid #d1d9e0;max-height:70vh}
table{border-collapse:collapse;width:100%;font-size:.92em}
th,td{border-bottom:1px solid #d1d9e0;padding:.35em .5em;text-align:left;vertical-align:top}
th{background:#f6f8fa;position:sticky;top:0}
td.where,td.cidr{font-family:ui-monospace,"DejaVu Sans Mono",monospace;white-space:nowrap}
.sev{font-weight:bold;border-radius:.3em;padding:0 .4em}
.sev-error{background:#ffebe9;color:#b42318}.sev-warning{background:#fff8c5;color:#7a5a00}.sev-note{background:#ddf4ff;color:#0550ae}
.notes{color:#59636e;font-size:.9em;margin:.2em 0 0 0;padding-left:1.2em}
.filters{display:flex;flex-wrap:wrap;gap:1em;align-items:center;margin:.5em 0}
.filters input[type=search]{min-width:20em}
.empty{color:#59636e;font-style:italic}
.load-errors{color:#b42318;font-family:ui-monospace,"DejaVu Sans Mono",monospace;white-space:pre-wrap}
ol.steps{margin:.2em 0;padding-left:1.5em}
)";

constexpr std::string_view script = R"(
(function () {
  var text = document.getElementById('filter-text');
  var rule = document.getElementById('filter-rule');
  var levels = document.querySelectorAll('input[name=severity]');
  var rows = document.querySelectorAll('#findings tbody tr');
  var shown = document.getElementById('shown');
  if (!text || !rule || !shown) return;  // no findings: no filters
  function apply() {
    var wanted = {};
    levels.forEach(function (c) { wanted[c.value] = c.checked; });
    var q = text.value.toLowerCase();
    var n = 0;
    rows.forEach(function (r) {
      var ok = wanted[r.dataset.severity] && (rule.value === '' || r.dataset.rule === rule.value) &&
               (q === '' || r.textContent.toLowerCase().indexOf(q) >= 0);
      r.hidden = !ok;
      if (ok) n++;
    });
    shown.textContent = String(n);
  }
  // A link may carry a filter: report.html#filter=prod-eu. A bad escape (%E0%A4%A) is taken as written:
  // decodeURIComponent throws on it, which would stop this script before the filters are wired.
  if (location.hash.indexOf('#filter=') === 0) {
    var wanted = location.hash.slice(8);
    try { wanted = decodeURIComponent(wanted); } catch (e) {}
    text.value = wanted;
  }
  text.addEventListener('input', apply);
  rule.addEventListener('change', apply);
  levels.forEach(function (c) { c.addEventListener('change', apply); });
  apply();
})();
document.body.dataset.ready = 'yes';
)";

void write_findings(std::string& buf, const check_report& r) {
  const fleet& f = r.shown.model;
  auto counts = count_severities(r.shown.findings);
  buf += "<h2 id=\"findings-title\">Findings</h2>\n";
  if (r.shown.findings.empty()) {
    buf += r.load_failed ? "<p class=\"empty\">None: the fleet could not be loaded, so nothing was checked.</p>\n"
                         : "<p class=\"empty\">No findings.</p>\n";
    return;
  }
  // The rules that occur, for the rule filter, in the rule table's order.
  std::vector<bool> occurs(rule_table().size(), false);
  for (std::size_t k = 0; k < r.shown.findings.size(); ++k) occurs[static_cast<std::size_t>(r.shown.findings.stored(k).id)] = true;
  buf += "<div class=\"filters\">";
  for (auto [level, n] : {std::pair{severity::error, counts.errors}, std::pair{severity::warning, counts.warnings},
                          std::pair{severity::note, counts.notes}}) {
    std::string name(to_string(level));
    buf += "<label><input type=\"checkbox\" name=\"severity\" value=\"" + name + "\" checked> " + name + "s (" +
           std::to_string(n) + ")</label>";
  }
  buf += "<label>rule <select id=\"filter-rule\"><option value=\"\">every rule</option>";
  for (const auto& ri : rule_table()) {
    if (!occurs[static_cast<std::size_t>(ri.value)]) continue;
    buf += "<option value=\"" + esc(ri.id) + "\">" + esc(ri.id) + " " + esc(ri.name) + "</option>";
  }
  buf += "</select></label>";
  buf += "<label>text <input type=\"search\" id=\"filter-text\" placeholder=\"owner, CIDR, file...\"></label>";
  buf += "<span><span id=\"shown\">" + std::to_string(r.shown.findings.size()) + "</span> of " +
         std::to_string(r.shown.findings.size()) + " shown</span></div>\n";
  buf += "<table id=\"findings\">\n<thead><tr><th>severity</th><th>rule</th><th>where</th><th>finding</th></tr></thead>\n"
         "<tbody>\n";
  for (const auto& x : r.shown.findings) {
    const auto& ri = info(x.id);
    std::string level(to_string(x.level));
    auto at = locate(f, x);
    buf += "<tr data-severity=\"" + level + "\" data-rule=\"" + esc(ri.id) + "\"><td><span class=\"sev sev-" + level +
           "\">" + level + "</span></td><td><a href=\"" + esc(rule_help_uri(x.id)) + "\">" + esc(ri.id) + "</a> " +
           esc(ri.name) + "</td><td class=\"where\">" + esc(to_string(at.where)) + "</td><td>" + esc(x.message);
    std::vector<std::string> notes;
    for (std::size_t k = 1; k < x.ranges.size(); ++k) {
      const auto& other = f.ranges[x.ranges[k]];
      notes.push_back(to_string(other.where) + ": " + range_note(f, other));
    }
    for (auto c : x.via) notes.push_back(to_string(f.connections[c].where) + ": " + f.describe_connection(c) + " is declared here");
    if (!x.hint.empty()) notes.push_back("hint: " + x.hint);
    if (!notes.empty()) {
      buf += "<ul class=\"notes\">";
      for (const auto& n : notes) buf += "<li>" + esc(n) + "</li>";
      buf += "</ul>";
    }
    buf += "</td></tr>\n";
  }
  buf += "</tbody>\n</table>\n";
}

// The simulator's verdict on the runbook of the steps above it; nothing when not simulated.
void write_verdict(std::string& buf, const std::optional<simulation_result>& r) {
  if (!r) return;
  if (r->passed()) {
    buf += "simulation " + esc(summary(*r)) + "<br>";
    return;
  }
  buf += "<strong>simulation " + esc(summary(*r)) + "; DO NOT FOLLOW AS WRITTEN</strong><ul>";
  for (const auto& f : r->failures) buf += "<li>" + esc(to_string(f, r->steps)) + "</li>";
  buf += "</ul>";
}

void write_plan(std::string& buf, const check_report& r) {
  buf += "<h2 id=\"plan-title\">Plan</h2>\n";
  if (!r.plan_note.empty()) {
    buf += "<p class=\"empty\">" + esc(r.plan_note) + "</p>\n";
    return;
  }
  if (r.plan == nullptr) {
    buf += "<p class=\"empty\">No plan: `cidrcheck check --format html` draws one.</p>\n";
    return;
  }
  const auto& p = *r.plan;
  const fleet& f = r.shown.model;
  if (p.changes.empty() && p.problems.empty()) {
    buf += "<p class=\"empty\">Nothing to change: the fleet has no errors to plan away.</p>\n";
    return;
  }
  std::vector<std::uint32_t> owners;
  for (const auto& c : p.changes) {
    if (std::find(owners.begin(), owners.end(), c.owner) == owners.end()) owners.push_back(c.owner);
  }
  buf += "<p>" + esc(plural(p.changes.size(), "change")) + " to " + esc(plural(owners.size(), "owner")) +
         ", total cost " + std::to_string(p.total_cost) + (p.optimal ? ", proven cheapest" : ", not proven cheapest") +
         (p.complete() ? "" : "; " + esc(plural(p.problems.size(), "problem")) + " it cannot fix") + ".</p>\n";
  if (auto failed = p.runbooks_failed()) {
    buf += "<p><strong>" + esc(plural(failed, "runbook")) +
           " FAILED the migration simulation: do not follow as written.</strong></p>\n";
  }
  if (!p.changes.empty()) {
    buf += "<table id=\"plan\">\n<thead><tr><th>owner</th><th>role</th><th>from</th><th>to</th><th>cost</th>"
           "<th>why, and the steps</th></tr></thead>\n<tbody>\n";
    for (const auto& c : p.changes) {
      std::string role = change_role(f, c);
      buf += "<tr><td>" + esc(f.owners[c.owner].name) + "</td><td>" + esc(role) + "</td><td class=\"cidr\">" +
             (c.from.is_valid() ? esc(c.from.to_string()) : "(new)") + "</td><td class=\"cidr\">" +
             esc(c.to.to_string()) + "</td><td>" + std::to_string(c.cost) + "</td><td>";
      for (const auto& reason : c.reasons) buf += esc(reason) + "<br>";
      if (!c.source.empty()) buf += "from " + esc(c.source) + "<br>";
      if (!c.transition_safe) buf += "<strong>not transition-safe</strong><br>";
      // Operations merged into one maintenance share one runbook: shown once, with the first.
      if (c.operation && p.runbook_is_earlier(*c.operation) &&
          !p.operations[p.operations[*c.operation].merged_with.front()].changes.empty()) {
        const auto& first = p.operations[p.operations[*c.operation].merged_with.front()];
        const auto& with = p.changes[first.changes.front()];
        buf += "in one maintenance with the " + esc(change_role(f, with)) + " change of " +
               esc(f.owners[with.owner].name) + " above: one runbook, whose steps are there";
      } else if (!c.steps.empty()) {
        buf += "<ol class=\"steps\">";
        for (const auto& s : c.steps) buf += "<li>" + esc(s.text) + "</li>";
        buf += "</ol>";
        write_verdict(buf, simulation_of(p, c));
      }
      buf += "</td></tr>\n";
    }
    buf += "</tbody>\n</table>\n";
  }
  if (!p.problems.empty()) {
    buf += "<h3>What the plan cannot fix</h3>\n<ul>";
    for (const auto& problem : p.problems) buf += "<li>" + esc(problem.message) + "</li>";
    buf += "</ul>\n";
  }
}

}  // namespace

void write_html(output& out, const check_report& r) {
  auto& buf = out.buffer();
  auto counts = count_severities(r.shown.findings);
  // The title and the summary say first whether anything was checked.
  auto load_errors = static_cast<std::size_t>(
      std::count_if(r.diagnostics.begin(), r.diagnostics.end(), [](const diagnostic& d) { return d.level == severity::error; }));
  std::string summary = r.load_failed ? "The fleet could not be loaded (" + plural(load_errors, "error") +
                                            " in the input): nothing was checked"
                                      : describe_counts(counts);
  buf += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "script-src 'unsafe-inline'; img-src data:\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta name=\"generator\" content=\"cidrcheck " +
         std::string(version_string) + "\">\n<title>cidrcheck: " + esc(summary) + "</title>\n<style>" +
         std::string(style) + "</style>\n</head>\n<body>\n";
  buf += "<h1>cidrcheck " + std::string(r.old_name.empty() ? "check" : "diff") + "</h1>\n";
  buf += "<p class=\"summary\" id=\"summary\">" + esc(summary);
  if (!r.suppressed.empty()) buf += ", " + std::to_string(r.suppressed.size()) + " suppressed";
  if (r.baselined != 0) buf += ", " + std::to_string(r.baselined) + " in the baseline";
  if (r.below_minimum != 0) buf += ", " + std::to_string(r.below_minimum) + " below the minimum severity";
  if (!r.old_name.empty()) buf += "; what the change adds to " + esc(r.old_name);
  buf += ".</p>\n<p class=\"files\">";
  for (std::size_t k = 0; k < r.files.size(); ++k) buf += (k == 0 ? "" : ", ") + esc(r.files[k]);
  buf += "</p>\n";
  if (!r.diagnostics.empty()) {
    buf += r.load_failed ? "<ul class=\"load-errors\" id=\"load-errors\">" : "<ul class=\"notes\">";
    for (const auto& d : r.diagnostics) buf += "<li>" + esc(format_diagnostic(d)) + "</li>";
    buf += "</ul>\n";
  }
  buf += "<h2 id=\"map-title\">Map</h2>\n";
  if (!r.map_svg.empty()) {
    // Inline, without the XML declaration: tooltips (<title>) work, and nothing is fetched.
    auto start = r.map_svg.find("<svg");
    buf += "<div class=\"map\" id=\"map\">";
    buf += r.map_svg.substr(start == std::string_view::npos ? 0 : start);
    buf += "</div>\n";
  } else {
    buf += "<p class=\"empty\">" + esc(r.map_note.empty() ? "No map." : r.map_note) + "</p>\n";
  }
  write_findings(buf, r);
  out.maybe_flush();
  write_plan(buf, r);
  buf += "<script>" + std::string(script) + "</script>\n</body>\n</html>\n";
}

}  // namespace cidrcheck::cli
