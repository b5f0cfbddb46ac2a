#include <cidrcheck/address_map.hpp>
#include <cidrcheck/fleet/capacity.hpp>
#include <cidrcheck/prefix_allocator.hpp>

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_map>

namespace cidrcheck {

auto node_capacity(const fleet& f, const catalog& c, std::uint32_t owner) -> cluster_capacity {
  const auto& o = f.owners[owner];
  cluster_capacity out;
  out.owner = owner;
  out.nodes = o.nodes;
  bool any_pods = false, any_v4 = false;
  for (auto k : o.ranges) {
    const auto& r = f.ranges[k];
    if (r.role != range_role::pods) continue;
    any_pods = true;
    any_v4 = any_v4 || r.cidr.version() == ip_version::v4;
  }
  if (!any_pods) return out;
  out.version = any_v4 ? ip_version::v4 : ip_version::v6;
  out.node_mask = c.pod_block(o, out.version);
  for (auto k : o.ranges) {
    const auto& r = f.ranges[k];
    if (r.role == range_role::pods && r.cidr.version() == out.version) out.node_blocks += node_blocks(r.cidr, out.node_mask);
  }
  return out;
}

auto node_capacities(const fleet& f, const catalog& c) -> std::vector<cluster_capacity> {
  std::vector<cluster_capacity> out;
  for (std::uint32_t k = 0; k < f.owners.size(); ++k) {
    if (f.owners[k].kind != owner_kind::cluster) continue;
    auto capacity = node_capacity(f, c, k);
    if (capacity.version != ip_version::none) out.push_back(capacity);
  }
  return out;
}

auto used_space(const fleet& f) -> address_set {
  address_set_builder b;
  for (const auto& r : f.ranges) b.add(r.cidr);
  return b.build();
}

auto default_pools(const fleet& f, const catalog& c) -> std::vector<prefix> {
  auto used = used_space(f);
  std::vector<prefix> out;
  for (const auto& p : c.private_space) {
    if (used.overlaps(p)) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

auto capacity_pools(const fleet& f, const catalog& c) -> std::vector<prefix> {
  // IPv6 is in use when the fleet declares an IPv6 range. The IPv6 ranges that
  // defaults bring beside IPv4 ones (kind's dual-stack defaults, Tailscale's
  // ULA range) do not make an IPv4 fleet plan IPv6 space.
  bool declared_v6 = std::any_of(f.ranges.begin(), f.ranges.end(), [](const fleet_range& r) {
    return r.origin == range_origin::declared && r.cidr.version() == ip_version::v6;
  });
  auto out = default_pools(f, c);
  if (!declared_v6) {
    out.erase(std::remove_if(out.begin(), out.end(), [](const prefix& p) { return p.version() == ip_version::v6; }),
              out.end());
  }
  return out;
}

auto pool_usage(const fleet& f, std::span<const prefix> pools) -> std::vector<pool_space> {
  auto used = used_space(f);
  std::vector<pool_space> out;
  out.reserve(pools.size());
  for (const auto& p : pools) {
    address_set pool{p};
    auto inside = used & pool;
    out.push_back({p, inside, pool - inside});
  }
  return out;
}

auto summarize_pool(const pool_space& space, std::span<const int> lengths) -> pool_summary {
  pool_summary out;
  out.pool = space.pool;
  out.used = space.used.size();
  out.free = space.free.size();
  out.free_blocks = space.free.prefixes().size();
  const auto v = space.pool.version();
  prefix_allocator free(space.free);
  out.largest_free = free.largest(v);
  for (int length : lengths) {
    bool possible = length >= 0 && length <= bit_width(v);
    out.fits.push_back(possible ? free.count_fitting(v, length) : 0);
  }
  return out;
}

auto usage(const fleet& f, std::span<const prefix> pools, usage_group by) -> std::vector<usage_share> {
  // Number the groups, then map every piece of space to the groups covering it.
  std::vector<std::string> names;
  std::unordered_map<std::string, std::uint32_t> ids;
  address_map<std::set<std::uint32_t>> cover;
  for (const auto& r : f.ranges) {
    std::string name = by == usage_group::role ? f.role_name(r) : f.owners[r.owner].name;
    auto [it, added] = ids.emplace(name, static_cast<std::uint32_t>(names.size()));
    if (added) names.push_back(std::move(name));
    cover.add(r.cidr, {it->second});
  }
  std::vector<usage_share> out;
  for (const auto& p : pools) {
    std::unordered_map<std::uint32_t, uint128> totals;
    cover.for_each_in(address_range(p), [&](const address_range& piece, const std::set<std::uint32_t>& groups) {
      for (auto g : groups) totals[g] += piece.size();
    });
    auto first = out.size();
    for (const auto& [g, n] : totals) out.push_back({p, names[g], n});
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(), [](const usage_share& a, const usage_share& b) {
      return std::tie(b.addresses, a.group) < std::tie(a.addresses, b.group);
    });
  }
  return out;
}

}  // namespace cidrcheck
