#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/fleet/triage.hpp>

#include "compact_findings.hpp"

#include <algorithm>
#include <array>

namespace cidrcheck {

namespace {

// Every range of the finding is named by a pattern, and every pattern names a range.
auto matches(const fleet& f, const suppression& s, rule id, std::span<const std::uint32_t> ranges) -> bool {
  if (s.id != id || ranges.empty()) return false;
  auto named = [&](std::uint32_t k) {
    return std::any_of(s.entities.begin(), s.entities.end(), [&](const auto& p) { return p.matches(f, f.ranges[k]); });
  };
  auto names_one = [&](const entity_pattern& p) {
    return std::any_of(ranges.begin(), ranges.end(), [&](auto k) { return p.matches(f, f.ranges[k]); });
  };
  return std::all_of(ranges.begin(), ranges.end(), named) &&
         std::all_of(s.entities.begin(), s.entities.end(), names_one);
}

// "suppression of overlap for dev-a/pods, dev-b"
auto describe(const suppression& s) -> std::string {
  std::string out = "suppression of " + std::string(info(s.id).name) + " for ";
  for (std::size_t k = 0; k < s.entities.size(); ++k) out += (k ? ", " : "") + s.entities[k].to_string();
  return out;
}

// Says which entities name no owner, with the closest owner name.
auto unknown_owners(const fleet& f, const suppression& s) -> std::string {
  std::vector<std::string_view> names;
  std::string out;
  for (const auto& p : s.entities) {
    if (f.find_owner(p.owner)) continue;
    if (names.empty()) {
      for (const auto& o : f.owners) names.push_back(o.name);
    }
    out += "; no cluster or network is named '" + p.owner + "'" + detail::did_you_mean(p.owner, names);
  }
  return out;
}

auto hygiene_finding(rule id, const suppression& s, std::string message, std::string hint) -> finding {
  finding x;
  x.id = id;
  x.level = info(id).default_severity;
  x.message = std::move(message);
  x.hint = std::move(hint);
  x.where = s.where;
  x.end_column = s.end_column;
  return x;
}

class rule_settings {
 public:
  explicit rule_settings(std::span<const rule_override> overrides) {
    for (const auto& o : overrides) levels_[static_cast<std::size_t>(o.id)] = o;
  }
  // Applies the setting of rule id to level; returns false when the rule is off.
  auto apply(rule id, severity& level) const -> bool {
    const auto& o = levels_[static_cast<std::size_t>(id)];
    if (!o) return true;
    if (!o->level) return false;
    level = *o->level;
    return true;
  }

 private:
  std::array<std::optional<rule_override>, rule_table_data.size()> levels_;
};

// The rule settings and live suppressions, applied one finding at a time, so
// that findings held as records (compact_findings) are judged as triage() judges.
class triage_pass {
 public:
  triage_pass(const fleet& f, const triage_options& options)
      : f_(f), options_(options), settings_(options.overrides), used_(options.suppressions.size()) {
    for (std::size_t k = 0; k < options.suppressions.size(); ++k) {
      const auto& s = options.suppressions[k];
      if (!s.expires || !(*s.expires < options.today)) live_[static_cast<std::size_t>(s.id)].push_back(k);
    }
  }

  enum class verdict : std::uint8_t { kept, off, suppressed };

  // Judges a finding of rule id about ranges: applies its rule's setting to
  // level; when the first live suppression that matches it hides it, sets by.
  auto judge(rule id, severity& level, std::span<const std::uint32_t> ranges, std::size_t& by) -> verdict {
    if (!settings_.apply(id, level)) return verdict::off;
    for (auto k : live_[static_cast<std::size_t>(id)]) {
      if (matches(f_, options_.suppressions[k], id, ranges)) {
        used_[k] = true;
        by = k;
        return verdict::suppressed;
      }
    }
    return verdict::kept;
  }

  // Appends one expired-suppression finding per expired suppression and one
  // unused-suppression finding per live one that hid nothing, in the
  // suppressions' order (after every judge()).
  void add_hygiene(std::vector<finding>& out) const {
    for (std::size_t k = 0; k < options_.suppressions.size(); ++k) {
      const auto& s = options_.suppressions[k];
      finding x;
      if (s.expires && *s.expires < options_.today) {
        x = hygiene_finding(rule::expired_suppression, s,
                            describe(s) + " expired on " + to_iso_date(*s.expires) + "; what it hid is reported again",
                            "fix what it hid and delete it, or renew it with a new expires date and reason");
      } else if (!used_[k]) {
        x = hygiene_finding(rule::unused_suppression, s, describe(s) + " matches no finding" + unknown_owners(f_, s),
                            "delete it if the problem is fixed; otherwise correct its rule or entities");
      } else {
        continue;
      }
      if (settings_.apply(x.id, x.level)) out.push_back(std::move(x));
    }
  }

 private:
  const fleet& f_;
  const triage_options& options_;
  rule_settings settings_;
  std::vector<bool> used_;
  std::array<std::vector<std::size_t>, rule_table_data.size()> live_;  // per rule, in order
};

}  // namespace

auto triage(const fleet& f, std::vector<finding> findings, const triage_options& options) -> triage_result {
  triage_pass pass(f, options);
  triage_result out;
  // The findings kept move forward in place: a fleet can have millions, and a copy would double them.
  std::size_t kept = 0;
  for (auto& x : findings) {
    std::size_t by = 0;
    auto verdict = pass.judge(x.id, x.level, x.ranges, by);
    if (verdict == triage_pass::verdict::off) continue;
    if (verdict == triage_pass::verdict::suppressed) {
      out.suppressed.push_back({std::move(x), by});
    } else {
      if (&findings[kept] != &x) findings[kept] = std::move(x);
      ++kept;
    }
  }
  findings.erase(findings.begin() + static_cast<std::ptrdiff_t>(kept), findings.end());
  out.findings = std::move(findings);
  pass.add_hygiene(out.findings);
  return out;
}

namespace detail {

void compact_findings::triage(const fleet& f, const triage_options& options) {
  triage_pass pass(f, options);
  std::size_t kept = 0;
  for (std::size_t k = 0; k < records_.size(); ++k) {
    auto x = records_[k];
    severity& level = x.conflict ? x.level : whole_[x.pair[0]].level;
    std::size_t by = 0;
    if (pass.judge(x.id, level, ranges(k), by) != triage_pass::verdict::kept) continue;
    records_[kept++] = x;
  }
  records_.resize(kept);
  std::vector<finding> hygiene;
  pass.add_hygiene(hygiene);
  for (auto& x : hygiene) {
    records_.push_back({{static_cast<std::uint32_t>(whole_.size()), 0}, finding_record::nowhere, x.id, x.level, false});
    whole_.push_back(std::move(x));
  }
  described_.clear();
}

}  // namespace detail

}  // namespace cidrcheck
