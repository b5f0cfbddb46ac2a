#include <cidrcheck/fleet/catalog.hpp>

#include <algorithm>

namespace cidrcheck {

namespace {

// Reports whether a cluster of IP family `family` ("ipv4", "ipv6", "dual",
// empty for any) runs prefixes of p's version.
auto serves(std::string_view family, const prefix& p) -> bool {
  if (family == "ipv4") return p.version() == ip_version::v4;
  if (family == "ipv6") return p.version() == ip_version::v6;
  return true;
}

// Adds the defaults of the cluster's IP family, placed at the key that brought them.
void add_ranges(fleet& f, std::uint32_t owner_index, range_role role, range_origin origin,
                const std::vector<prefix>& cidrs, std::string_view family = {}) {
  const owner& o = f.owners[owner_index];
  bool from_cni = origin == range_origin::cni_default;
  for (const auto& cidr : cidrs) {
    if (!serves(family, cidr)) continue;
    fleet_range r;
    r.cidr = cidr;
    r.owner = owner_index;
    r.role = role;
    r.origin = origin;
    r.where = from_cni ? o.cni_where : o.type_where;
    r.end_column = from_cni ? o.cni_end_column : o.type_end_column;
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
    if (f.ranges[k].role == role && f.ranges[k].is_plain()) return false;
  }
  return true;
}

// A cluster's pods, as its IPAM mode takes them: the CNI's own pool, or the
// distribution's cluster CIDR (the CNI's pool where the distribution has
// none), or nothing where pods take the network's addresses or a pool set
// elsewhere. Without a known mode, the distribution's default.
void fill_pods(fleet& f, std::uint32_t k, const distribution_defaults* d, const ipam_mode* mode,
               std::string_view family) {
  auto from = mode != nullptr ? mode->pods_from : pod_source::distribution;
  if (from == pod_source::distribution && d != nullptr && !d->pods.empty()) {
    add_ranges(f, k, range_role::pods, range_origin::distribution_default, d->pods, family);
  } else if (mode != nullptr && (from == pod_source::cni || from == pod_source::distribution)) {
    add_ranges(f, k, range_role::pods, range_origin::cni_default, mode->pods, family);
  }
}

// The IP families a cluster runs: its own `ip_family`, else its distribution's ("" for all).
auto family_of(const owner& o, const distribution_defaults* d) -> std::string {
  return !o.ip_family.empty() ? o.ip_family : d != nullptr ? d->ip_family : "";
}

}  // namespace

auto default_services(const catalog& c, const owner& o, std::span<const prefix> network) -> std::vector<prefix> {
  const auto* d = o.type.empty() ? nullptr : c.find_distribution(o.type);
  if (d == nullptr) return {};
  // The service default may depend on the network (EKS picks 172.20.0.0/16 in a 10/8 VPC).
  bool instead = d->services_if_network_in &&
                 std::any_of(network.begin(), network.end(), [&](const prefix& p) { return p.subnet_of(*d->services_if_network_in); });
  std::vector<prefix> out;
  auto family = family_of(o, d);
  for (const auto& p : instead ? d->services_instead : d->services) {
    if (serves(family, p)) out.push_back(p);
  }
  return out;
}

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
    const auto* d = o.type.empty() ? nullptr : c.find_distribution(o.type);
    if (d == nullptr && !o.type.empty()) unknown.push_back(k);
    std::string family = family_of(o, d);
    if (d != nullptr && fillable(f, o, range_role::network)) {
      add_ranges(f, k, range_role::network, range_origin::distribution_default, d->network, family);
    }
    if (fillable(f, f.owners[k], range_role::pods)) fill_pods(f, k, d, c.ipam_of(f.owners[k]), family);
    if (d != nullptr && fillable(f, f.owners[k], range_role::services)) {
      std::vector<prefix> network;
      for (auto r : f.owners[k].ranges) {
        if (f.ranges[r].role == range_role::network) network.push_back(f.ranges[r].cidr);
      }
      add_ranges(f, k, range_role::services, range_origin::distribution_default, default_services(c, f.owners[k], network));
    }
  }
  return unknown;
}

}  // namespace cidrcheck
