#pragma once
// Which clusters lie in a VPC. A network owner of a VPC type is the VPC; a
// cluster whose network range lies inside one of its ranges runs in it (kops
// reuses a shared VPC with `networkCIDR` set to the VPC's own CIDR, and puts
// several clusters in it: kubernetes/kops docs/run_in_existing_vpc.md). Such a
// network is no conflict with its VPC, nor with another cluster network in the
// same VPC; check() leaves those pairs out and plan() moves a VPC with every
// cluster in it.

#include <cidrcheck/fleet/fleet.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace cidrcheck::detail {

/// Reports whether o is a VPC: a network of type vpc, vnet, aws-vpc,
/// aws-default-vpc, gcp-vpc or azure-vnet.
auto is_vpc(const owner& o) -> bool;

/// The VPC of each cluster and which ranges lie in one; built once per fleet.
class vpc_index {
 public:
  /// Indexes f's VPC ranges. O(n log n) in the ranges.
  explicit vpc_index(const fleet& f);

  /// Returns the VPC a range lies in when it is a cluster's network range (not a
  /// route or a translated range) inside a VPC's own range: the VPC of lowest
  /// owner index among those holding it. O(W log n), W the address width.
  auto vpc_of_range(std::uint32_t range) const -> std::optional<std::uint32_t>;

  /// Per owner: for a cluster, the VPC its network lies in (the lowest owner
  /// index over its network ranges); nullopt for networks and other clusters.
  auto vpc_of_owners() const -> std::vector<std::optional<std::uint32_t>>;

  /// Reports whether an overlapping pair is no conflict: a cluster network and a
  /// range of the VPC it lies in (per vpc_of_range), or two cluster networks
  /// that lie in one VPC. A range of another VPC, or a network that sticks out
  /// of its VPC, is a conflict.
  auto shared(std::uint32_t a, std::uint32_t b) const -> bool;

 private:
  const fleet& f_;
  std::vector<std::pair<prefix, std::uint32_t>> vpc_ranges_;  // (cidr, VPC owner), sorted
};

}  // namespace cidrcheck::detail
