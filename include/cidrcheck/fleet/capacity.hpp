#pragma once
// Capacity questions a planner asks of a fleet: how much of each pool its
// ranges use and who uses it, what is still free, and how many nodes a
// cluster's pod ranges hold. Compiled in cidrcheck::fleet; the pod-capacity
// rule counts node blocks with the same functions.

#include <cidrcheck/address_set.hpp>
#include <cidrcheck/fleet/catalog.hpp>
#include <cidrcheck/fleet/fleet.hpp>
#include <cidrcheck/prefix.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace cidrcheck {

/// Reports whether kube-controller-manager can cut node blocks of length
/// node_mask from a pod range: the mask is no shorter than the range and no
/// longer than an address, and for IPv6 at most 16 bits longer than the range.
constexpr auto node_mask_fits(const prefix& pods, int node_mask) noexcept -> bool {
  if (!pods.is_valid() || node_mask < pods.length() || node_mask > pods.width()) return false;
  return pods.version() == ip_version::v4 || node_mask - pods.length() <= 16;
}

/// Returns how many node blocks of length node_mask a pod range holds
/// (2^(node_mask - length)), or 0 when the mask does not fit (node_mask_fits).
constexpr auto node_blocks(const prefix& pods, int node_mask) noexcept -> std::uint64_t {
  return node_mask_fits(pods, node_mask) ? std::uint64_t{1} << (node_mask - pods.length()) : 0;
}

/// How many nodes one cluster's pod ranges can number.
struct cluster_capacity {
  std::uint32_t owner = 0;                ///< index into fleet::owners
  ip_version version = ip_version::none;  ///< the family counted; none when the cluster has no pod range
  /// The block one node takes, of that family: the CNI's block size where it
  /// hands out blocks (Calico /26), else the node CIDR mask (catalog::pod_block).
  int node_mask = 0;
  std::uint64_t node_blocks = 0;          ///< node blocks in the pod ranges of that family
  std::optional<std::uint64_t> nodes;     ///< the cluster's declared node count
};

/// Returns the pod capacity of a cluster as the pod-capacity rule counts it:
/// its IPv4 pod ranges by its IPv4 block (catalog::pod_block: the CNI's block
/// size, else the node mask), or, for a cluster without IPv4 pod ranges, its
/// IPv6 ones by its IPv6 block; ranges the block does not fit count nothing. Precondition: owner indexes a cluster of f.
auto node_capacity(const fleet& f, const catalog& c, std::uint32_t owner) -> cluster_capacity;

/// Returns the pod capacity of every cluster that has a pod range, in fleet
/// order: what `cidrcheck capacity` and Fleet.node_capacity() list. Clusters
/// without one (VPC-CNI clusters take pod addresses from their VPC) are left
/// out: they have no node blocks to count.
auto node_capacities(const fleet& f, const catalog& c) -> std::vector<cluster_capacity>;

/// Returns every address some range of the fleet covers.
auto used_space(const fleet& f) -> address_set;

/// Returns the pools a capacity report looks at when the caller names none: the
/// catalog's private blocks (RFC 1918, RFC 6598, fc00::/7) that share an
/// address with some range of the fleet, in address order. The map draws these.
auto default_pools(const fleet& f, const catalog& c) -> std::vector<prefix>;

/// Returns the pools `cidrcheck capacity` reports when the caller names none:
/// default_pools, without the IPv6 blocks when the fleet declares no IPv6
/// range (the IPv6 ranges of defaults, as kind's or Tailscale's, do not make
/// an IPv4 fleet plan IPv6 space).
auto capacity_pools(const fleet& f, const catalog& c) -> std::vector<prefix>;

/// One pool split into what the fleet's ranges use of it and what is free.
struct pool_space {
  prefix pool;
  address_set used;  ///< the addresses of the pool some range covers
  address_set free;  ///< pool - used
};

/// Returns each pool's used and free space, in the order given.
auto pool_usage(const fleet& f, std::span<const prefix> pools) -> std::vector<pool_space>;

/// A pool's space in numbers, as capacity reports show it.
struct pool_summary {
  prefix pool;
  uint128 used = 0;                    ///< addresses some range covers
  uint128 free = 0;                    ///< addresses no range covers
  std::optional<prefix> largest_free;  ///< the largest free block, lowest among equals
  std::size_t free_blocks = 0;         ///< how many prefixes the free space's minimal cover has
  /// For each length asked for, how many blocks of it still fit (best fit, as
  /// prefix_allocator takes them); 0 for a length the pool's version cannot have.
  std::vector<uint128> fits;
};

/// Returns the numbers of one pool's space, with how many blocks of each of
/// lengths still fit. O(free blocks) per length.
auto summarize_pool(const pool_space& space, std::span<const int> lengths) -> pool_summary;

/// What usage() groups ranges by.
enum class usage_group : std::uint8_t {
  role,   ///< network, pods, services, or a network's type (office, vpn, ...)
  owner,  ///< the cluster or network
};

/// How many addresses of one pool one group's ranges cover.
struct usage_share {
  prefix pool;
  std::string group;      ///< the role name or the owner name
  uint128 addresses = 0;  ///< each address once, however many of the group's ranges cover it; saturates at 2^128 - 1
};

/// Returns, for each pool, how many of its addresses each group covers. Two
/// ranges of one group that overlap count their shared addresses once; two
/// groups that overlap both count them, so shares can add up to more than the
/// used space. Groups with nothing in a pool are left out. Ordered by pool (as
/// given), then by addresses (most first), then by group name. One address map
/// over all ranges: O(n log n) for n ranges plus the pieces the pools cut.
auto usage(const fleet& f, std::span<const prefix> pools, usage_group by) -> std::vector<usage_share>;

}  // namespace cidrcheck
