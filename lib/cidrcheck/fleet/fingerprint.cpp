#include <cidrcheck/detail/sha256.hpp>
#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/fleet/suppression.hpp>

#include <algorithm>
#include <unordered_map>

namespace cidrcheck {

auto entity_id(const fleet& f, const fleet_range& r) -> std::string {
  auto name = escape_entity_name(f.owners[r.owner].name);
  return r.role == range_role::external ? name : name + "/" + std::string(to_string(r.role));
}

auto fingerprint(const fleet& f, const finding& x) -> std::string {
  // Fields are separated by a byte no name or CIDR contains; the version tag
  // lets the scheme change without old fingerprints matching new ones by chance.
  detail::sha256 h;
  h.update("cidrcheck-fingerprint-v1\n");
  h.update(info(x.id).id);
  if (x.ranges.empty()) {
    h.update("\n");
    h.update(x.message);
    return h.hex_digest();
  }
  std::vector<std::string> entities, cidrs;
  for (auto k : x.ranges) {
    entities.push_back(entity_id(f, f.ranges[k]));
    cidrs.push_back(f.ranges[k].cidr.to_string());
  }
  if (x.block) cidrs.push_back(x.block->cidr.to_string());
  std::sort(entities.begin(), entities.end());
  std::sort(cidrs.begin(), cidrs.end());
  for (const auto* list : {&entities, &cidrs}) {
    h.update("\n");
    for (const auto& item : *list) {
      h.update(item);
      h.update("\x1f");
    }
  }
  return h.hex_digest();
}

auto fingerprints(const fleet& f, std::span<const finding> findings) -> std::vector<std::string> {
  std::vector<std::string> out;
  out.reserve(findings.size());
  std::unordered_map<std::string, std::size_t> seen;
  for (const auto& x : findings) {
    auto value = fingerprint(f, x);
    auto n = ++seen[value];
    if (n > 1) value += ":" + std::to_string(n);
    out.push_back(std::move(value));
  }
  return out;
}

}  // namespace cidrcheck
