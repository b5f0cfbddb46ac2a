#include <cidrcheck/detail/spelling.hpp>
#include <cidrcheck/fleet/triage.hpp>

#include <algorithm>
#include <array>

namespace cidrcheck {

namespace {

// Every range of the finding is named by a pattern, and every pattern names a range.
auto matches(const fleet& f, const suppression& s, const finding& x) -> bool {
  if (s.id != x.id || x.ranges.empty()) return false;
  auto named = [&](std::uint32_t k) {
    return std::any_of(s.entities.begin(), s.entities.end(), [&](const auto& p) { return p.matches(f, f.ranges[k]); });
  };
  auto names_one = [&](const entity_pattern& p) {
    return std::any_of(x.ranges.begin(), x.ranges.end(), [&](auto k) { return p.matches(f, f.ranges[k]); });
  };
  return std::all_of(x.ranges.begin(), x.ranges.end(), named) &&
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
  // Applies the setting of x's rule; returns false when the rule is off.
  auto apply(finding& x) const -> bool {
    const auto& o = levels_[static_cast<std::size_t>(x.id)];
    if (!o) return true;
    if (!o->level) return false;
    x.level = *o->level;
    return true;
  }

 private:
  std::array<std::optional<rule_override>, rule_table_data.size()> levels_;
};

}  // namespace

auto triage(const fleet& f, std::vector<finding> findings, const triage_options& options) -> triage_result {
  rule_settings settings(options.overrides);
  const auto& suppressions = options.suppressions;
  std::vector<bool> used(suppressions.size());
  std::array<std::vector<std::size_t>, rule_table_data.size()> live;  // per rule, in order
  for (std::size_t k = 0; k < suppressions.size(); ++k) {
    const auto& s = suppressions[k];
    if (!s.expires || !(*s.expires < options.today)) live[static_cast<std::size_t>(s.id)].push_back(k);
  }
  triage_result out;
  // The findings kept move forward in place: a fleet can have millions, and a copy would double them.
  std::size_t kept = 0;
  for (auto& x : findings) {
    if (!settings.apply(x)) continue;
    std::optional<std::size_t> by;
    for (auto k : live[static_cast<std::size_t>(x.id)]) {
      if (matches(f, suppressions[k], x)) {
        by = k;
        break;
      }
    }
    if (by) {
      used[*by] = true;
      out.suppressed.push_back({std::move(x), *by});
    } else {
      if (&findings[kept] != &x) findings[kept] = std::move(x);
      ++kept;
    }
  }
  findings.erase(findings.begin() + static_cast<std::ptrdiff_t>(kept), findings.end());
  out.findings = std::move(findings);
  for (std::size_t k = 0; k < suppressions.size(); ++k) {
    const auto& s = suppressions[k];
    finding x;
    if (s.expires && *s.expires < options.today) {
      x = hygiene_finding(rule::expired_suppression, s,
                          describe(s) + " expired on " + to_iso_date(*s.expires) + "; what it hid is reported again",
                          "fix what it hid and delete it, or renew it with a new expires date and reason");
    } else if (!used[k]) {
      x = hygiene_finding(rule::unused_suppression, s, describe(s) + " matches no finding" + unknown_owners(f, s),
                          "delete it if the problem is fixed; otherwise correct its rule or entities");
    } else {
      continue;
    }
    if (settings.apply(x)) out.findings.push_back(std::move(x));
  }
  return out;
}

}  // namespace cidrcheck
