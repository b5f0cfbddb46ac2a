#include "vpc.hpp"

#include <algorithm>
#include <string_view>

namespace cidrcheck::detail {

auto is_vpc(const owner& o) -> bool {
  if (o.kind != owner_kind::network) return false;
  for (std::string_view t : {"vpc", "vnet", "aws-vpc", "aws-default-vpc", "gcp-vpc", "azure-vnet"}) {
    if (o.type == t) return true;
  }
  return false;
}

vpc_index::vpc_index(const fleet& f) : f_(f) {
  for (const auto& r : f.ranges) {
    if (r.is_plain() && is_vpc(f.owners[r.owner])) vpc_ranges_.emplace_back(r.cidr, r.owner);
  }
  std::sort(vpc_ranges_.begin(), vpc_ranges_.end());
}

auto vpc_index::vpc_of_range(std::uint32_t range) const -> std::optional<std::uint32_t> {
  const auto& r = f_.ranges[range];
  if (vpc_ranges_.empty() || r.role != range_role::network || !r.is_plain()) return std::nullopt;
  std::optional<std::uint32_t> best;
  for (int length = r.cidr.length(); length >= 0; --length) {
    auto holder = prefix::containing(r.cidr.network(), length);
    auto it = std::lower_bound(vpc_ranges_.begin(), vpc_ranges_.end(), std::pair{holder, std::uint32_t{0}});
    // The first entry of this prefix has the lowest owner index (sorted pairs).
    if (it != vpc_ranges_.end() && it->first == holder && (!best || it->second < *best)) best = it->second;
  }
  return best;
}

auto vpc_index::vpc_of_owners() const -> std::vector<std::optional<std::uint32_t>> {
  std::vector<std::optional<std::uint32_t>> out(f_.owners.size());
  for (std::uint32_t c = 0; c < f_.owners.size(); ++c) {
    if (f_.owners[c].kind != owner_kind::cluster) continue;
    for (auto k : f_.owners[c].ranges) {
      auto v = vpc_of_range(k);
      if (v && (!out[c] || *v < *out[c])) out[c] = v;
    }
  }
  return out;
}

auto vpc_index::shared(std::uint32_t a, std::uint32_t b) const -> bool {
  if (vpc_ranges_.empty()) return false;
  const auto& x = f_.ranges[a];
  const auto& y = f_.ranges[b];
  auto is_vpc_range = [&](const fleet_range& r) { return r.is_plain() && is_vpc(f_.owners[r.owner]); };
  if (is_vpc_range(x)) return vpc_of_range(b) == x.owner;
  if (is_vpc_range(y)) return vpc_of_range(a) == y.owner;
  auto va = vpc_of_range(a);
  return va && va == vpc_of_range(b);
}

}  // namespace cidrcheck::detail
