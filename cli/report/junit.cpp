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
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

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

auto classname(rule r) -> std::string { return std::string(info(r).id) + " " + std::string(info(r).name); }

// The report's test cases without holding them: one per owner and rule (but
// the suppression rules) in each owner's file's suite, whose findings and
// suppressed findings are looked up as the case is written, then one per
// finding without ranges. Memory is O(owners + findings) however many cases
// there are (100,000 owners are 2.2 million cases); b92d7c3 built every case
// first (1.08 GB for those).
class junit_cases {
 public:
  struct found {
    std::vector<std::size_t> findings;  // positions in the report's findings
    std::vector<const suppressed_finding*> suppressed;
    bool fails = false;  // one of the findings is above note
    auto skipped() const -> bool { return findings.empty() && !suppressed.empty(); }
  };
  struct suite {
    std::string file;
    std::vector<std::uint32_t> owners;     // in owner order
    std::vector<std::size_t> ownerless;  // findings without ranges, in report order
    std::size_t tests = 0, failures = 0, skipped = 0;
  };

  explicit junit_cases(const check_report& r) : f_(r.shown.model) {
    for (const auto& ri : rule_table()) {
      if (!is_suppression_rule(ri.value)) rules_.push_back(ri.value);
    }
    for (const auto& file : r.files) suite_of(file);
    for (std::uint32_t o = 0; o < f_.owners.size(); ++o) suites_[suite_of(f_.owners[o].where.file)].owners.push_back(o);
    const auto& shown = r.shown.findings;
    for (std::size_t k = 0; k < shown.size(); ++k) {
      const auto& x = shown.stored(k);
      if (x.ranges.empty()) {
        suites_[suite_of(x.where.file)].ownerless.push_back(k);
      } else if (!is_suppression_rule(x.id)) {
        auto& c = found_[{f_.ranges[x.ranges.front()].owner, x.id}];
        c.findings.push_back(k);
        c.fails = c.fails || x.level != severity::note;
      }
    }
    for (const auto& s : r.suppressed) {
      if (s.value.ranges.empty() || is_suppression_rule(s.value.id)) continue;
      found_[{f_.ranges[s.value.ranges.front()].owner, s.value.id}].suppressed.push_back(&s);
    }
    for (auto& s : suites_) s.tests = s.owners.size() * rules_.size() + s.ownerless.size();
    for (const auto& [key, c] : found_) {
      auto& s = suites_[suite_index_.at(f_.owners[key.first].where.file)];
      s.failures += c.fails ? 1 : 0;
      s.skipped += c.skipped() ? 1 : 0;
    }
    for (auto& s : suites_) {
      for (auto k : s.ownerless) s.failures += shown.stored(k).level != severity::note ? 1 : 0;
    }
  }

  auto suites() const -> const std::vector<suite>& { return suites_; }
  auto rules() const -> const std::vector<rule>& { return rules_; }
  /// The findings of owner o under rule r (none for most).
  auto of(std::uint32_t o, rule r) const -> const found& {
    static const found none;
    auto it = found_.find({o, r});
    return it == found_.end() ? none : it->second;
  }

 private:
  auto suite_of(const std::string& file) -> std::size_t {
    auto [it, added] = suite_index_.try_emplace(file, suites_.size());
    if (added) suites_.push_back({file, {}, {}});
    return it->second;
  }

  const fleet& f_;
  std::vector<rule> rules_;
  std::vector<suite> suites_;
  std::unordered_map<std::string, std::size_t> suite_index_;
  std::map<std::pair<std::uint32_t, rule>, found> found_;
};

// Writes one <testcase> (classname, name, where) with what was found for it.
void write_case(std::string& buf, const check_report& r, const std::string& classname, const std::string& name,
                const source_location& where, const junit_cases::found& c) {
  const fleet& f = r.shown.model;
  buf += "    <testcase classname=\"" + escape_xml(classname) + "\" name=\"" + escape_xml(name) + "\" file=\"" +
         escape_xml(where.file) + "\" line=\"" + std::to_string(where.line) + "\" time=\"0\"";
  if (c.findings.empty() && c.suppressed.empty()) {
    buf += "/>\n";
    return;
  }
  buf += ">\n";
  std::string text;
  const auto& shown = r.shown.findings;
  for (auto k : c.findings) text += finding_text(f, shown[k]);
  if (c.fails) {
    auto first = c.findings.front();
    for (auto k : c.findings) {
      if (shown.stored(k).level > shown.stored(first).level) first = k;
    }
    buf += "      <failure type=\"" + std::string(to_string(shown.stored(first).level)) + "\" message=\"" +
           escape_xml(shown[first].message) + "\">" + escape_xml(text) + "</failure>\n";
  } else if (c.skipped()) {
    const auto& s = r.suppressions[c.suppressed.front()->suppression];
    buf += "      <skipped message=\"" + escape_xml("suppressed: " + s.reason) + "\"/>\n";
  } else {
    buf += "      <system-out>" + escape_xml(text) + "</system-out>\n";
  }
  buf += "    </testcase>\n";
}

}  // namespace

void write_junit(output& out, const check_report& r) {
  const fleet& f = r.shown.model;
  junit_cases cases(r);
  std::size_t tests = 0, failures = 0, skipped = 0;
  for (const auto& s : cases.suites()) {
    tests += s.tests;
    failures += s.failures;
    skipped += s.skipped;
  }
  auto& buf = out.buffer();
  buf += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  buf += "<testsuites name=\"cidrcheck\" tests=\"" + std::to_string(tests) + "\" failures=\"" +
         std::to_string(failures) + "\" errors=\"0\" skipped=\"" + std::to_string(skipped) + "\" time=\"0\">\n";
  for (const auto& s : cases.suites()) {
    buf += "  <testsuite name=\"" + escape_xml(s.file) + "\" tests=\"" + std::to_string(s.tests) + "\" failures=\"" +
           std::to_string(s.failures) + "\" errors=\"0\" skipped=\"" + std::to_string(s.skipped) + "\" time=\"0\">\n";
    for (auto o : s.owners) {
      for (auto rule_id : cases.rules()) {
        const auto& c = cases.of(o, rule_id);
        // A case with findings is placed at its first finding; without, at its owner.
        auto where = c.findings.empty() ? f.owners[o].where : locate(f, r.shown.findings.stored(c.findings.front())).where;
        write_case(buf, r, classname(rule_id), f.owners[o].name, where, c);
        out.maybe_flush();
      }
    }
    for (auto k : s.ownerless) {
      const auto x = r.shown.findings[k];
      write_case(buf, r, classname(x.id), x.message, x.where, {{k}, {}, x.level != severity::note});
      out.maybe_flush();
    }
    buf += "  </testsuite>\n";
  }
  buf += "</testsuites>\n";
}

}  // namespace cidrcheck::cli
