#include <cidrcheck/detail/sha256.hpp>
#include <cidrcheck/fleet/fingerprint.hpp>
#include <cidrcheck/fleet/suppression.hpp>

#include <algorithm>
#include <cstdint>

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
  for (const auto& x : findings) out.push_back(fingerprint(f, x));
  // Repeats are found by sorting indexes, not with a table of every fingerprint:
  // a fleet can have a million findings, and the table was a third of a check's memory.
  std::vector<std::uint32_t> order(out.size());
  for (std::uint32_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return out[a] < out[b]; });
  for (std::size_t k = 1, n = 1; k < order.size(); ++k) {
    // The repeats' suffixes come after the comparison with the run's first, which has none.
    n = out[order[k]] == out[order[k - n]] ? n + 1 : 1;
    if (n > 1) out[order[k]] += ":" + std::to_string(n);
  }
  return out;
}

}  // namespace cidrcheck
