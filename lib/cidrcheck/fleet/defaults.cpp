#include <cidrcheck/fleet/catalog.hpp>

namespace cidrcheck {

namespace {

void add_ranges(fleet& f, std::uint32_t owner_index, range_role role, range_origin origin,
                const std::vector<prefix>& cidrs) {
  for (const auto& cidr : cidrs) {
    fleet_range r;
    r.cidr = cidr;
    r.owner = owner_index;
    r.role = role;
    r.origin = origin;
    r.where = f.owners[owner_index].type_where;
    r.end_column = f.owners[owner_index].type_end_column;
    f.owners[owner_index].ranges.push_back(static_cast<std::uint32_t>(f.ranges.size()));
    f.ranges.push_back(r);
  }
}

// Reports whether a default may fill a role, the one rule for every owner: the
// owner neither declared it (not even as an empty list: `pods: []`, `cidrs: []`)
// nor has a range in it. A network's routes are not its ranges: a tailnet that
// lists routes still brings its own addresses.
auto fillable(const fleet& f, const owner& o, range_role role) -> bool {
  if (o.declared.names(role)) return false;
  for (auto k : o.ranges) {
    if (f.ranges[k].role == role && !f.ranges[k].is_route()) return false;
  }
  return true;
}

}  // namespace

auto apply_defaults(fleet& f, const catalog& c) -> std::vector<std::uint32_t> {
  std::vector<std::uint32_t> unknown;
  for (std::uint32_t k = 0; k < f.owners.size(); ++k) {
    const owner& o = f.owners[k];
    if (o.kind == owner_kind::network) {
      const auto* type = c.find_network_type(o.type);
      if (type != nullptr && fillable(f, o, range_role::external)) {
        add_ranges(f, k, range_role::external, range_origin::network_type, type->cidrs);
      }
      continue;
    }
    if (o.type.empty()) continue;
    const auto* d = c.find_distribution(o.type);
    if (d == nullptr) {
      unknown.push_back(k);
      continue;
    }
    if (fillable(f, o, range_role::network)) {
      add_ranges(f, k, range_role::network, range_origin::distribution_default, d->network);
    }
    if (fillable(f, f.owners[k], range_role::pods)) {
      add_ranges(f, k, range_role::pods, range_origin::distribution_default, d->pods);
    }
    if (fillable(f, f.owners[k], range_role::services)) {
      // The service default may depend on the network (EKS picks 172.20.0.0/16 in a 10/8 VPC).
      const auto* services = &d->services;
      if (d->services_if_network_in) {
        for (auto r : f.owners[k].ranges) {
          if (f.ranges[r].role == range_role::network && f.ranges[r].cidr.subnet_of(*d->services_if_network_in)) {
            services = &d->services_instead;
          }
        }
      }
      add_ranges(f, k, range_role::services, range_origin::distribution_default, *services);
    }
  }
  return unknown;
}

}  // namespace cidrcheck
