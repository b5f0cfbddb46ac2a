// JUnit XML as GitLab's and GitHub's test reporters read it: one test suite
// per file, one test case per rule and owner (classname "CIDR101 overlap",
// name the owner), so names stay stable across runs and a fixed finding shows
// as a passing test. Errors and warnings fail their test case; notes pass with
// their text as output; a case with only suppressed findings is skipped. The
// full text goes in the element body, since GitLab ignores `message`.

#include "report.hpp"

#include <cidrcheck/detail/xml.hpp>
#include <cidrcheck/fleet/rules.hpp>

#include <map>
#include <utility>

namespace cidrcheck::cli {

namespace {

auto escape_xml(std::string_view text) -> std::string {
  std::string out;
  detail::append_xml_escaped(out, text);
  return out;
}

auto is_suppression_rule(rule r) -> bool { return r == rule::expired_suppression || r == rule::unused_suppression; }

auto finding_text(const fleet& f, const finding& x) -> std::string {
  auto at = locate(f, x);
  std::string text = to_string(at.where) + ": " + std::string(to_string(x.level)) + "[" +
                     std::string(info(x.id).name) + "]: " + x.message + "\n";
  for (std::size_t k = 1; k < x.ranges.size(); ++k) {
    const auto& r = f.ranges[x.ranges[k]];
    text += to_string(r.where) + ": note: " + range_note(f, r) + "\n";
  }
  for (auto c : x.via) text += to_string(f.connections[c].where) + ": note: " + f.describe_connection(c) + " is declared here\n";
  if (!x.hint.empty()) text += "hint: " + x.hint + "\n";
  text += "docs: " + rule_help_uri(x.id) + "\n";
  return text;
}

struct test_case {
  std::string classname, name;
  source_location where;
  std::vector<const finding*> findings;
  std::vector<const suppressed_finding*> suppressed;

  auto fails() const -> bool {
    for (const auto* x : findings) {
      if (x->level != severity::note) return true;
    }
    return false;
  }
  auto skipped() const -> bool { return findings.empty() && !suppressed.empty(); }
};

auto classname(rule r) -> std::string { return std::string(info(r).id) + " " + std::string(info(r).name); }

// The test cases of each file, files in the order the report lists them.
auto collect(const check_report& r) -> std::vector<std::pair<std::string, std::vector<test_case>>> {
  const fleet& f = r.shown.model;
  std::vector<std::pair<std::string, std::vector<test_case>>> suites;
  auto suite = [&](const std::string& file) -> std::vector<test_case>& {
    for (auto& [name, cases] : suites) {
      if (name == file) return cases;
    }
    return suites.emplace_back(file, std::vector<test_case>{}).second;
  };
  for (const auto& file : r.files) suite(file);
  // One case per owner and rule; remember where each lives.
  std::map<std::pair<std::uint32_t, rule>, std::pair<std::size_t, std::size_t>> index;
  for (std::uint32_t o = 0; o < f.owners.size(); ++o) {
    const auto& file = f.owners[o].where.file;
    auto& cases = suite(file);
    std::size_t which = 0;
    for (std::size_t s = 0; s < suites.size(); ++s) {
      if (suites[s].first == file) which = s;
    }
    for (const auto& ri : rule_table()) {
      if (is_suppression_rule(ri.value)) continue;
      index[{o, ri.value}] = {which, cases.size()};
      cases.push_back({classname(ri.value), f.owners[o].name, f.owners[o].where, {}, {}});
    }
  }
  auto case_of = [&](const finding& x) -> test_case* {
    auto it = index.find({f.ranges[x.ranges.front()].owner, x.id});
    return it == index.end() ? nullptr : &suites[it->second.first].second[it->second.second];
  };
  for (const auto& x : r.shown.findings) {
    if (x.ranges.empty()) {
      suite(x.where.file).push_back({classname(x.id), x.message, x.where, {&x}, {}});
    } else if (auto* c = case_of(x)) {
      if (c->findings.empty()) c->where = locate(f, x).where;
      c->findings.push_back(&x);
    }
  }
  for (const auto& s : r.suppressed) {
    if (auto* c = case_of(s.value)) c->suppressed.push_back(&s);
  }
  return suites;
}

}  // namespace

void write_junit(output& out, const check_report& r) {
  const fleet& f = r.shown.model;
  auto suites = collect(r);
  std::size_t tests = 0, failures = 0, skipped = 0;
  for (const auto& [file, cases] : suites) {
    for (const auto& c : cases) {
      ++tests;
      failures += c.fails() ? 1 : 0;
      skipped += c.skipped() ? 1 : 0;
    }
  }
  auto& buf = out.buffer();
  buf += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  buf += "<testsuites name=\"cidrcheck\" tests=\"" + std::to_string(tests) + "\" failures=\"" +
         std::to_string(failures) + "\" errors=\"0\" skipped=\"" + std::to_string(skipped) + "\" time=\"0\">\n";
  for (const auto& [file, cases] : suites) {
    std::size_t suite_failures = 0, suite_skipped = 0;
    for (const auto& c : cases) {
      suite_failures += c.fails() ? 1 : 0;
      suite_skipped += c.skipped() ? 1 : 0;
    }
    buf += "  <testsuite name=\"" + escape_xml(file) + "\" tests=\"" + std::to_string(cases.size()) +
           "\" failures=\"" + std::to_string(suite_failures) + "\" errors=\"0\" skipped=\"" +
           std::to_string(suite_skipped) + "\" time=\"0\">\n";
    for (const auto& c : cases) {
      buf += "    <testcase classname=\"" + escape_xml(c.classname) + "\" name=\"" + escape_xml(c.name) +
             "\" file=\"" + escape_xml(c.where.file) + "\" line=\"" + std::to_string(c.where.line) + "\" time=\"0\"";
      if (c.findings.empty() && c.suppressed.empty()) {
        buf += "/>\n";
        continue;
      }
      buf += ">\n";
      std::string text;
      for (const auto* x : c.findings) text += finding_text(f, *x);
      if (c.fails()) {
        const finding* first = c.findings.front();
        for (const auto* x : c.findings) {
          if (x->level > first->level) first = x;
        }
        buf += "      <failure type=\"" + std::string(to_string(first->level)) + "\" message=\"" +
               escape_xml(first->message) + "\">" + escape_xml(text) + "</failure>\n";
      } else if (c.skipped()) {
        const auto& s = r.suppressions[c.suppressed.front()->suppression];
        buf += "      <skipped message=\"" + escape_xml("suppressed: " + s.reason) + "\"/>\n";
      } else {
        buf += "      <system-out>" + escape_xml(text) + "</system-out>\n";
      }
      buf += "    </testcase>\n";
      out.maybe_flush();
    }
    buf += "  </testsuite>\n";
  }
  buf += "</testsuites>\n";
}

}  // namespace cidrcheck::cli
